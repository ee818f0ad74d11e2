"""The prose checks themselves: a number outside a quote is caught, exempt regions are not prose, a changed number
is no longer found (so the content tests cannot pass vacuously)."""

import notebook_text as nt


def test_a_number_in_prose_is_reported_until_a_quote_covers_it():
    text = "After 10 rounds explain reaches 0.94, scalar 0.77."
    assert [x.split(" in ")[0] for x in nt.uncovered_numbers(text, [])] == ["'10'", "'0.94'", "'0.77'"]
    assert nt.uncovered_numbers(text, ["After 10 rounds explain reaches 0.94", "scalar 0.77"]) == []


def test_a_changed_number_is_no_longer_covered():
    quote = "explain reaches 0.94"
    assert nt.uncovered_numbers("explain reaches 0.95", [quote]) != []


def test_code_math_headings_references_and_identifiers_are_not_prose_numbers():
    text = (
        "## Section 3 · 200 kernels\n*Estimated timing to here: 12 minutes.*\n"
        "Run `fast_p(s, 1.5)`; $2MNK$ FLOP; see Table 1 (section 5.1.3) of arXiv 2502.10517 (2025) and notebook 03."
        " An H100 runs Llama-3-70B/8 in BF16; fast_1.5 is a name. **Think! 2.** Why?\n1. a list item"
    )
    assert nt.uncovered_numbers(text, []) == []


def test_details_blocks_and_prompts_are_found():
    text = (
        "**Think! 1.** Why?\n\n<details><summary>Answer</summary>\n\nBecause.\n</details>\n\n"
        "**Think! 2.** How?\n\n## Next"
    )
    found = nt.prompts(text, nt.THINK)
    assert [n for n, _ in found] == ["1", "2"]
    assert nt.details(found[0][1]) == [("Answer", "\n\nBecause.\n")]
    assert nt.details(found[1][1]) == []
