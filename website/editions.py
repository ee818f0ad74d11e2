"""The editions of the pack's website: the one list that the build (tools/build_site.py) and Sphinx's configuration
(website/conf.py) read.

An edition is one language's copy of the pack: its notebooks, its lecturer's guide, its references and its README,
plus a home page `website/<code>/index.md`. Adding an edition is one `Edition(...)` in EDITIONS and that home page.
The first edition sits at the site's root, every other one in a folder named by its code (`zh/`). An edition whose
notebook folder holds no notebook yet is left out of the build (no placeholder pages), and the language switch shows
only the editions that are built: with one, there is no switch.
"""

from __future__ import annotations

import dataclasses
import pathlib

REPO = pathlib.Path(__file__).resolve().parents[1]
WEBSITE = REPO / "website"


@dataclasses.dataclass(frozen=True)
class Edition:
    """One language's copy of the pack, as the site shows it.

    Attributes:
        code: the edition's folder under the site's root (unless it is the first edition) and its `<html lang>`.
        name: the edition's name in its own language, as the language switch shows it.
        language: Sphinx's language code: the theme's words and the search's word splitter (`zh_CN` uses jieba).
        title: the site's title in this edition.
        notebooks: the folder of the edition's notebooks, relative to the repository (the same file names in every
            edition: the language switch goes from a notebook to the same notebook).
        guide, references, readme: the edition's lecturer's guide, references and README, relative to the repository.
        glossary_heading: the heading under which every notebook of the edition ends with its glossary.
        widget_note: what the site says where a notebook's widget panel would be (it needs a running kernel).
        pack_note: the word beside a notebook page's .ipynb button: the notebook runs only with the pack (a link to
            the course download).
        print_label: the notebook pages' print button.
        hub_label, binder_label: the notebook pages' launch links (`make site HUB_URL=.. REPO_URL=..`), into the
            class's JupyterHub (nbgitpuller) and into Binder.
        course_readme: the course download's README.md, in the edition's language, with the commands that set the
            course up and open it.
    """

    code: str
    name: str
    language: str
    title: str
    notebooks: str
    guide: str
    references: str
    readme: str
    glossary_heading: str
    widget_note: str
    pack_note: str
    print_label: str
    hub_label: str
    binder_label: str
    course_readme: str

    @property
    def index_page(self) -> pathlib.Path:
        return WEBSITE / self.code / "index.md"

    @property
    def course_zip(self) -> str:
        """The course download's file name, at the edition's root (the home page links it)."""
        return f"toyhw-course-{self.code}.zip"

    def notebook_files(self) -> list[pathlib.Path]:
        """Return the edition's notebooks, sorted by name (an absent folder gives none)."""
        return sorted((REPO / self.notebooks).glob("*.ipynb"))


EDITIONS: tuple[Edition, ...] = (
    Edition(
        code="en",
        name="English",
        language="en",
        title="toyhw: how LLM agents optimize GPU kernels",
        notebooks="notebooks",
        guide="docs/lecturer_guide.md",
        references="docs/references.md",
        readme="README.md",
        glossary_heading="Glossary",
        widget_note="Interactive panel: it runs in JupyterLab (`make lab`) or the classroom app "
        "(`make present`). The figure or table above is its default view.",
        pack_note="needs the course pack",
        print_label="Print",
        hub_label="Open in the class's JupyterHub",
        binder_label="Open in Binder",
        course_readme="website/en/course-README.md",
    ),
    Edition(
        code="zh",
        name="中文",
        language="zh_CN",
        title="toyhw：LLM 智能体如何优化 GPU 内核",
        notebooks="notebooks/zh",
        guide="docs/zh/lecturer_guide.md",
        references="docs/zh/references.md",
        readme="README.zh.md",
        glossary_heading="术语表",
        widget_note="交互面板：需要运行中的内核，在 JupyterLab（`make lab EDITION=zh`）或课堂应用"
        "（`make present EDITION=zh`）里使用。上面的图或表是它的默认视图。",
        pack_note="需要课程包",
        print_label="打印",
        hub_label="在课程的 JupyterHub 里打开",
        binder_label="在 Binder 里打开",
        course_readme="website/zh/course-README.md",
    ),
)


def built(editions: tuple[Edition, ...] = EDITIONS) -> list[Edition]:
    """Return the editions the site is built from: those whose notebook folder holds notebooks, in list order."""
    return [edition for edition in editions if edition.notebook_files()]


def folder(edition: Edition, editions: list[Edition]) -> str:
    """Return the edition's folder under the site's root, with a trailing slash: "" for the first built edition."""
    return "" if edition == editions[0] else f"{edition.code}/"


def pages(edition: Edition) -> list[str]:
    """Return the edition's pages as Sphinx document names (no suffix), the home page first."""
    return ["index", "glossary", "docs/lecturer_guide", "docs/references"] + [
        f"notebooks/{path.stem}" for path in edition.notebook_files()
    ]


def switch_links(current: Edition, pagename: str, editions: list[Edition]) -> list[dict[str, str]]:
    """Return, for every built edition, the link from page `pagename` of edition `current` to the same page in that
    edition (its home page where it lacks that page): name, code, href relative to the page, and whether it is the
    current edition. Empty when only one edition is built: there is nothing to switch to.

    Sphinx's own pages (search, genindex) exist in every edition.
    """
    if len(editions) < 2:
        return []
    to_site_root = "../" * pagename.count("/") + ("../" * folder(current, editions).count("/"))
    links = []
    for edition in editions:
        target = pagename if pagename in pages(edition) or pagename in ("search", "genindex") else "index"
        links.append(
            {
                "code": edition.code,
                "name": edition.name,
                "current": edition == current,
                "href": f"{to_site_root}{folder(edition, editions)}{target}.html",
            }
        )
    return links
