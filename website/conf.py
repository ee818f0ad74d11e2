"""Sphinx configuration of one edition of the pack's website (tools/build_site.py names the edition in
TOYHW_SITE_EDITION and stages its sources; `make site` builds every edition).

Offline by construction: the theme (sphinx-book-theme), its icons and fonts, the search, the copy buttons
(sphinx-copybutton) and MathJax (from the sphinx-mathjax-offline package) are all copied into the site; no page loads
anything from another host.
"""

import hashlib
import os
import pathlib
import sys

_HERE = pathlib.Path(__file__).parent
sys.path.insert(0, str(_HERE))

import editions  # noqa: E402

_code = os.environ.get("TOYHW_SITE_EDITION", "")
_known = [edition.code for edition in editions.EDITIONS]
if _code not in _known:
    raise RuntimeError(
        f"TOYHW_SITE_EDITION={_code!r} names no edition; allowed: {', '.join(_known)} "
        "(build the site with `make site`, which sets it)"
    )
EDITION = next(edition for edition in editions.EDITIONS if edition.code == _code)

project = EDITION.title
html_title = EDITION.title
language = EDITION.language
toyhw_edition = EDITION.code
# Sphinx re-reads every page when a config value changes, not when an extension's code does: this value changes
# with the code that shapes the pages, so an incremental build never keeps pages the old code read.
toyhw_code = hashlib.sha256(b"".join(p.read_bytes() for p in sorted(_HERE.glob("*.py")))).hexdigest()

extensions = ["myst_nb", "sphinx.ext.mathjax", "sphinx-mathjax-offline", "sphinx_copybutton", "toyhw_site"]
exclude_patterns = ["_parts", "_extra"]  # staged by tools/build_site.py: the README's sections, the course download

# `make site HUB_URL=.. REPO_URL=.. REPO_BRANCH=..`: the notebook pages' launch links (launch.py; none when unset).
toyhw_hub_url = os.environ.get("TOYHW_SITE_HUB_URL", "")
toyhw_repo_url = os.environ.get("TOYHW_SITE_REPO_URL", "")
toyhw_repo_branch = os.environ.get("TOYHW_SITE_REPO_BRANCH", "")

# The notebooks are shown as committed: never executed, widget state never loaded (it is stripped anyway, and
# myst-nb's widget scripts would come from a CDN).
nb_execution_mode = "off"
nb_ipywidgets_js = {}
nb_merge_streams = True
myst_enable_extensions = ["dollarmath"]

# MathJax 3 from the site itself. The accessibility extensions would fetch speech rules from a CDN: off.
mathjax3_config = {
    "options": {"menuOptions": {"settings": {"assistiveMml": False, "collapsible": False, "explorer": False}}},
}

html_theme = "sphinx_book_theme"
html_static_path = ["_static"]
templates_path = ["_templates"]
html_css_files = ["toyhw.css"]
html_js_files = ["toyhw.js"]  # answers unfolded in print, search excerpts that start with the page's text
html_favicon = "_static/favicon.svg"
# A copy button on every block of code (notebook cells, listings), none on a cell's output.
copybutton_selector = "div:not(.output) > div.highlight > pre"
html_context = {"default_mode": "light"}  # the stored figures are drawn on white
html_sourcelink_suffix = ""  # the download button serves the stored .ipynb itself
html_show_sourcelink = False
html_theme_options = {
    "use_download_button": False,  # toyhw-header.html has a labelled one on every notebook page
    "use_fullscreen_button": False,
    "home_page_in_toc": True,
    "show_toc_level": 2,
    "article_header_end": ["toyhw-header.html", "article-header-buttons.html"],
    "footer_content_items": [],  # the theme's author line would read "Author name not set"
}
