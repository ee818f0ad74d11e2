/* The pack's scripts on every page of the site (conf.py, html_js_files).
 *
 * Printing: a collapsed answer (<details>) prints only its summary, so every closed one opens before the page prints
 * (the print button, or the browser's own Print) and closes again after.
 * Search: each hit's excerpt is cut from the page's text; the theme's article header (its buttons, whose hidden
 * labels read "System Settings 亮色 暗色") and the contents list for print come first in the page's main part, so
 * they are left out of the text the excerpt is cut from.
 */
(() => {
  let opened = [];
  window.addEventListener("beforeprint", () => {
    opened = Array.from(document.querySelectorAll("details:not([open])"));
    opened.forEach((answer) => { answer.open = true; });
  });
  window.addEventListener("afterprint", () => {
    opened.forEach((answer) => { answer.open = false; });
    opened = [];
  });
  document.addEventListener("click", (event) => {
    if (event.target.closest(".toyhw-print")) window.print();
  });

  // The header's buttons, the contents list printed pages start with, the in-page contents and the page footer.
  const NOT_THE_PAGE = ".bd-header-article, .onlyprint, .bd-sidebar-secondary, .prev-next-area, .d-print-none";
  const trimExcerpts = () => {
    if (typeof Search === "undefined" || Search.toyhwTrimmed) return;
    const htmlToText = Search.htmlToText;
    Search.htmlToText = (htmlString, anchor) => {
      const page = new DOMParser().parseFromString(htmlString, "text/html");
      page.querySelectorAll(NOT_THE_PAGE).forEach((element) => element.remove());
      return htmlToText(page.documentElement.outerHTML, anchor);
    };
    Search.toyhwTrimmed = true;
  };
  trimExcerpts();
  document.addEventListener("DOMContentLoaded", trimExcerpts);
})();
