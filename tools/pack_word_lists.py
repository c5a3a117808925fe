"""Write the word lists that ship inside cpwords from the project's real-data folder.

Reads ``enable1.txt``, ``letterpress-en.txt`` and ``truncate-final-wordlist.txt`` (and their
licence files) from ``../shared/data`` (or ``--data DIR``) and writes, into
``src/cpwords/data/wordlists/``:

- each list byte for byte, compressed with xz (Python's :mod:`lzma`, preset 9 extreme, CRC64):
  the decompressed text is the source file itself, so its SHA-256 is the source's;
- their licence files beside them, compressed the same way (``LICENSE-letterpress-CC0.txt.xz``,
  ``LICENSE-truncate-MIT.txt.xz``: decompressed, the source licence files byte for byte);
- ``manifest.json``: per list its name, file, source file, SHA-256, size and lines of the
  decompressed text, licence, licence file (compressed) with the SHA-256 of its text, and where
  it comes from
  (:mod:`cpwords.core.wordlists` reads it, and the tests check every number of it).

Run from the repository root::

    python tools/pack_word_lists.py            # ../shared/data
    python tools/pack_word_lists.py --data DIR

The same sources give the same decompressed texts and the same manifest on every machine (the
compressed bytes too, with the same liblzma). It refuses (exit 2) when a compressed list
would reach 1 MB, the project's limit for a tracked file.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import lzma
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "src" / "cpwords" / "data" / "wordlists"
#: The largest tracked file allowed, in bytes.
MAX_BYTES = 1_000_000

#: name -> (source file, licence, licence file or None, origin)
LISTS: dict[str, tuple[str, str, str | None, str]] = {
    "letterpress": (
        "letterpress-en.txt",
        "CC0-1.0",
        "LICENSE-letterpress-CC0.txt",
        "the English word list of the game Letterpress (lorenbrichter/Words, Words/en.txt)",
    ),
    "truncate": (
        "truncate-final-wordlist.txt",
        "MIT",
        "LICENSE-truncate-MIT.txt",
        "the dictionary of the game Truncate (TruncateGame/Truncate, "
        "dict_builder/final_wordlist.txt; 'word freq score' lines, '*' marks)",
    ),
    "enable1": (
        "enable1.txt",
        "public domain",
        None,
        "ENABLE (Enhanced North American Benchmark LExicon), the public-domain "
        "Scrabble-style word list",
    ),
}


def compress(data: bytes) -> bytes:
    """``data`` as an xz stream (preset 9 extreme, CRC64: the same bytes give the same stream
    with the same liblzma)."""
    return lzma.compress(
        data, format=lzma.FORMAT_XZ, check=lzma.CHECK_CRC64, preset=9 | lzma.PRESET_EXTREME
    )


def pack(data_dir: Path, out: Path = OUT) -> dict[str, dict[str, object]]:
    """Write the compressed lists, their compressed licences and ``manifest.json`` into ``out``.

    Returns
    -------
    dict
        The manifest written (list name -> its entry).

    Raises
    ------
    FileNotFoundError
        A source file or a licence file is missing from ``data_dir``.
    ValueError
        A compressed list would reach :data:`MAX_BYTES`.
    """
    out.mkdir(parents=True, exist_ok=True)
    manifest: dict[str, dict[str, object]] = {}
    for name, (source, licence, licence_file, origin) in LISTS.items():
        data = (data_dir / source).read_bytes()
        packed = compress(data)
        if len(packed) >= MAX_BYTES:
            raise ValueError(f"{source}: {len(packed):,} bytes compressed, over {MAX_BYTES:,}")
        (out / f"{source}.xz").write_bytes(packed)
        licence_packed: str | None = None
        licence_sha256: str | None = None
        if licence_file is not None:
            licence_text = (data_dir / licence_file).read_bytes()
            licence_packed = f"{licence_file}.xz"
            licence_sha256 = hashlib.sha256(licence_text).hexdigest()
            (out / licence_packed).write_bytes(compress(licence_text))
            (out / licence_file).unlink(missing_ok=True)  # an older plain copy
        manifest[name] = {
            "file": f"{source}.xz",
            "source_file": source,
            "sha256": hashlib.sha256(data).hexdigest(),
            "bytes": len(data),
            "lines": data.count(b"\n") + (not data.endswith(b"\n") and bool(data)),
            "compressed_bytes": len(packed),
            "licence": licence,
            "licence_file": licence_packed,
            "licence_sha256": licence_sha256,
            "origin": origin,
        }
    text = json.dumps(manifest, indent=2, sort_keys=True) + "\n"
    (out / "manifest.json").write_text(text, encoding="utf-8")
    return manifest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--data", type=Path, default=ROOT.parent / "shared" / "data", help="the real-data folder"
    )
    parser.add_argument("--out", type=Path, default=OUT, help="where to write")
    args = parser.parse_args(argv)
    try:
        manifest = pack(args.data, args.out)
    except (OSError, ValueError) as exc:
        print(f"pack_word_lists: error: {exc}", file=sys.stderr)
        return 2
    for name, entry in manifest.items():
        print(
            f"{name:<12} {entry['lines']:>9,} lines  {entry['bytes']:>10,} bytes -> "
            f"{entry['compressed_bytes']:>8,} xz  sha256 {entry['sha256']}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
