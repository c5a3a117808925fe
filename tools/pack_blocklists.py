"""Write the per-language blocklists that ship inside cpwords from the naughty-words package.

The npm package ``naughty-words`` (1.2.0) is the List of Dirty, Naughty, Obscene and Otherwise
Bad Words (LDNOOBW, CC BY 4.0) as one JSON array per language. Fetch it with npm's own client
and unpack it, then run from the repository root::

    npm pack naughty-words@1.2.0 && tar xzf naughty-words-1.2.0.tgz
    python tools/pack_blocklists.py package

This writes, into ``src/cpwords/data/blocklists/``, ``ldnoobw.json`` (language code -> the
list's entries, as given: cpwords lower-cases them when it reads them; the regional variant
``fr-CA-u-sd-caqc`` joins ``fr``) and the licence text ``LICENSE-LDNOOBW-CC-BY-4.0.txt``.
"""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "src" / "cpwords" / "data" / "blocklists"
#: Files of the package that are not a language's list.
NOT_LISTS = {"package.json", "package-lock.json", "bower.json"}


def main() -> None:
    """Read the unpacked package folder, write the lists and the licence."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("package", type=Path, help="the unpacked naughty-words package folder")
    src = parser.parse_args().package
    meta = json.loads((src / "package.json").read_text(encoding="utf-8"))
    lists: dict[str, list[str]] = {}
    for f in sorted(src.glob("*.json")):
        if f.name in NOT_LISTS:
            continue
        lang = f.stem.split("-")[0]
        lists.setdefault(lang, []).extend(json.loads(f.read_text(encoding="utf-8")))
    out = {
        "source": f"{meta['name']} {meta['version']}",
        "license": meta["license"],
        "lists": {k: sorted(set(v)) for k, v in sorted(lists.items())},
    }
    OUT.mkdir(parents=True, exist_ok=True)
    text = json.dumps(out, ensure_ascii=False, indent=0, sort_keys=True) + "\n"
    (OUT / "ldnoobw.json").write_text(text, encoding="utf-8")
    shutil.copyfile(src / "LICENSE", OUT / "LICENSE-LDNOOBW-CC-BY-4.0.txt")
    print(f"{len(lists)} languages, {sum(map(len, out['lists'].values()))} entries -> {OUT}")


if __name__ == "__main__":
    main()
