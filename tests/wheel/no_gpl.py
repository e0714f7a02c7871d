"""The built wheel and sdist hold no GPL code: nothing of third_party/ (xinxin and its driver)."""

import sys
import tarfile
import zipfile
from pathlib import Path

FORBIDDEN = ("third_party/", "xinxin-driver/", "xinxin_driver", "COPYING")


def names(path: Path) -> list[str]:
    if path.suffix == ".whl":
        return zipfile.ZipFile(path).namelist()
    with tarfile.open(path) as archive:
        return archive.getnames()


def main(folder: str) -> int:
    if not Path(folder).is_dir():
        print(f"no_gpl.py: {folder} is not a folder of built distributions", file=sys.stderr)
        return 2
    found = [f"{path.name}: {name}" for path in sorted(Path(folder).iterdir()) if path.suffix in (".whl", ".gz")
             for name in names(path) if any(word in name for word in FORBIDDEN)]
    for line in found:
        print(f"GPL code in a distribution: {line}", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
