/* The Chinese edition's query splitter (toyhw_site.py puts it into language_data.js, where searchtools.js looks for
 * `splitQuery`).
 *
 * The index holds jieba's words (with the pack's own words whole: the glossary's terms and the headings', from
 * tools/build_site.py), and Chinese is typed without spaces: Sphinx's splitter, which splits only at spaces and
 * punctuation, looks the whole run up and finds nothing unless the run is one word of the index. Here a run of Chinese
 * characters that the index does not hold whole is cut into words it holds: the cut that leaves out the fewest
 * characters, then the one with the fewest words. A character that no word of the index covers is left out, and so
 * is any one-character word (`K` of `split-K`): the index holds no word that short (SearchChinese.word_filter), and
 * a query word the index cannot hold would keep every page out of the results. Latin words and numbers are kept as
 * Sphinx keeps them.
 */
var splitQuery = (query) => {
  const words = query.split(/[^\p{Letter}\p{Number}_\p{Emoji_Presentation}]+/gu).filter((word) => word);
  const index = typeof Search !== "undefined" ? Search._index : null;
  if (!index) return words;
  const known = (word) => Object.hasOwn(index.terms, word) || Object.hasOwn(index.titleterms, word);
  const split = [];
  for (const word of words) {
    for (const run of word.match(/\p{Script=Han}+|[^\p{Script=Han}]+/gu)) {
      if (!/\p{Script=Han}/u.test(run) || known(run)) {
        split.push(run);
        continue;
      }
      // best[end]: the best cut of run.slice(0, end), as [characters left out, its words]
      const best = [[0, []]];
      for (let end = 1; end <= run.length; end++) {
        let choice = [best[end - 1][0] + 1, best[end - 1][1]];
        for (let start = 0; start < end - 1; start++) {
          const piece = run.slice(start, end);
          const [left, pieces] = best[start];
          const better = left < choice[0] || (left === choice[0] && pieces.length + 1 < choice[1].length);
          if (known(piece) && better) choice = [left, [...pieces, piece]];
        }
        best.push(choice);
      }
      split.push(...best[run.length][1]);
    }
  }
  return split.filter((word) => [...word].length > 1);
};
