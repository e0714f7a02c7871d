"""CITATION.cff (the repository's citation, Citation File Format 1.2.0) parses and names this version."""

import datetime
import re
from pathlib import Path

import yaml

import hearts_env

CFF = Path(__file__).resolve().parents[1] / "CITATION.cff"


def test_citation_file_is_valid_cff_of_this_version():
    cff = yaml.safe_load(CFF.read_text())
    required = {"cff-version", "message", "title", "authors"}  # the keys CFF 1.2.0 requires
    assert required <= set(cff), required - set(cff)
    assert cff["cff-version"] == "1.2.0"
    assert cff["title"] == "hearts-env" and cff["type"] == "software" and cff["license"] == "Apache-2.0"
    assert "Apache License" in (CFF.parent / "LICENSE").read_text()
    assert isinstance(cff["message"], str) and cff["message"]
    assert cff["authors"] and all(isinstance(a, dict) and (a.get("name") or a.get("family-names"))
                                  for a in cff["authors"])
    assert isinstance(cff["version"], str) and cff["version"] == hearts_env.__version__
    assert datetime.date.fromisoformat(str(cff["date-released"]))
    assert set(cff) <= {"cff-version", "message", "type", "title", "abstract", "authors", "license", "version",
                        "date-released", "keywords", "repository-code", "url", "doi", "identifiers",
                        "preferred-citation", "references", "commit", "contact", "license-url",
                        "repository", "repository-artifact"}, "a key that CFF 1.2.0 does not define"


def test_readme_points_to_the_citation():
    readme = (CFF.parent / "README.md").read_text()
    assert re.search(r"^## Citing", readme, re.MULTILINE) and "CITATION.cff" in readme


def test_the_citing_page_s_bibtex_names_this_version():
    page = (CFF.parent / "docs" / "cite.md").read_text()
    bibtex = page[page.index("```bibtex"):].split("```")[1]
    assert re.search(r"version = \{" + re.escape(hearts_env.__version__) + r"\}", bibtex)
    assert f"for version {hearts_env.__version__} " in page
    assert bibtex.count("{") == bibtex.count("}") and bibtex.strip().startswith("bibtex\n@software{hearts_env,")
