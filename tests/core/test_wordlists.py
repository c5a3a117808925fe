"""Issue 47: the games' word lists travel inside the package, with their licences."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import lzma
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from cpwords.core.errors import InputError
from cpwords.core.wordlists import licence_text, packaged_bytes, packaged_lexicon, packaged_lists

ROOT = Path(__file__).resolve().parents[2]
LISTS = ROOT / "src" / "cpwords" / "data" / "wordlists"

#: SHA-256 of each decompressed list: the files of ../shared/data, byte for byte.
SHA256 = {
    "enable1": "dfaa8563b2b36f0ed001549dfb55b2519b16aac23fdff4bbb24e5ff35b663240",
    "letterpress": "b78af5ad2f66bed4e64fd48334af7d5620a91c45e7a578c084b9b72f9abcd5dd",
    "truncate": "f8db20fb686f6d5487f3d4a74605cd52dcf3700c761c2a379486de55a717667b",
}
#: Words of each list as cpwords reads it (the Truncate list: first field, '*' marks dropped).
WORDS = {"enable1": 172_823, "letterpress": 274_926, "truncate": 112_774}
#: The compressed licence file of each licensed list, and how its text begins.
LICENCES = {
    "letterpress": ("LICENSE-letterpress-CC0.txt.xz", "CC0 1.0 Universal"),
    "truncate": ("LICENSE-truncate-MIT.txt.xz", "MIT License"),
}


def test_manifest_records_the_checksums_and_sizes_of_the_shipped_files() -> None:
    lists = packaged_lists()
    assert {name: e.sha256 for name, e in lists.items()} == SHA256
    for name, entry in lists.items():
        packed = (LISTS / entry.file).read_bytes()
        assert len(packed) == entry.compressed_bytes < 1_000_000, name  # every tracked file
        data = lzma.decompress(packed)
        assert hashlib.sha256(data).hexdigest() == entry.sha256 == SHA256[name]
        assert len(data) == entry.bytes
        assert data.count(b"\n") + (not data.endswith(b"\n")) == entry.lines
        assert packaged_bytes(name) == data
    assert all(p.stat().st_size < 1_000_000 for p in LISTS.iterdir())


def test_shipped_lists_read_without_the_shared_data(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fresh machine: no ../shared/data, no /usr/share/dict; the lists are in the package."""
    monkeypatch.setenv("CPWORDS_DATA", "none")
    monkeypatch.setenv("CPWORDS_DICT_DIR", "none")
    for name, n in WORDS.items():
        lex = packaged_lexicon(name)
        assert len(lex) == n and lex.skipped == 0 and lex.source == name
    truncate = packaged_lexicon("truncate").as_set()
    assert {"a", "la", "lap", "laps", "lapse", "elapse", "elapsed", "relapsed"} <= truncate
    assert "abolitionism" in truncate and not any("*" in w for w in truncate)
    assert "powerlifters" in packaged_lexicon("letterpress")
    assert "slipperflower" not in packaged_lexicon("letterpress")


def test_licence_files_sit_beside_the_lists_compressed() -> None:
    for name, entry in packaged_lists().items():
        if entry.licence_file is None:
            assert entry.licence == "public domain" and entry.licence_sha256 is None
            assert licence_text(name) is None
            continue
        file, start = LICENCES[name]
        assert entry.licence_file == file
        text = lzma.decompress((LISTS / file).read_bytes())
        assert hashlib.sha256(text).hexdigest() == entry.licence_sha256
        assert licence_text(name) == text.decode("utf-8")
        assert text.decode("utf-8").startswith(start)
    assert "Copyright (c) 2024 Truncate Authors" in (licence_text("truncate") or "")


def test_only_compressed_files_the_manifest_and_the_readme_ship() -> None:
    """No plain copy of a list or a licence: every data file is xz, and the manifest names it."""
    named = {"manifest.json", "README.md"}
    for entry in packaged_lists().values():
        named |= {entry.file, *([entry.licence_file] if entry.licence_file else [])}
    assert {p.name for p in LISTS.iterdir()} == named
    assert all(n.endswith(".xz") for n in named - {"manifest.json", "README.md"})


def test_a_damaged_list_is_refused_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cpwords.core import wordlists

    (tmp_path / "manifest.json").write_text((LISTS / "manifest.json").read_text())
    data = lzma.decompress((LISTS / "enable1.txt.xz").read_bytes())
    (tmp_path / "enable1.txt.xz").write_bytes(lzma.compress(data.replace(b"aa\n", b"ab\n", 1)))
    mit = lzma.decompress((LISTS / "LICENSE-truncate-MIT.txt.xz").read_bytes())
    (tmp_path / "LICENSE-truncate-MIT.txt.xz").write_bytes(lzma.compress(mit + b"more\n"))
    monkeypatch.setattr(wordlists, "folder", lambda: tmp_path)
    packaged_bytes.cache_clear()
    try:
        with pytest.raises(InputError, match=r"damaged .* reinstall cpwords"):
            packaged_bytes("enable1")
        with pytest.raises(InputError, match="no shipped word list 'web3'"):
            packaged_bytes("web3")
        with pytest.raises(InputError, match=r"licence LICENSE-truncate-MIT.txt.xz is damaged"):
            licence_text("truncate")
        with pytest.raises(InputError, match=r"licence LICENSE-letterpress-CC0.txt.xz cannot be"):
            licence_text("letterpress")  # missing
    finally:
        packaged_bytes.cache_clear()


def test_shipped_lists_are_the_shared_files_byte_for_byte(shared_data: Path) -> None:
    for name, entry in packaged_lists().items():
        assert packaged_bytes(name) == (shared_data / entry.source_file).read_bytes(), name
        if entry.licence_file is not None:
            source = shared_data / entry.licence_file.removesuffix(".xz")
            assert (licence_text(name) or "").encode("utf-8") == source.read_bytes()


@pytest.mark.slow
def test_the_packing_script_writes_the_same_lists(shared_data: Path, tmp_path: Path) -> None:
    """tools/pack_word_lists.py reproduces the manifest and every decompressed text."""
    script = ROOT / "tools" / "pack_word_lists.py"
    out = subprocess.run(
        [sys.executable, str(script), "--data", str(shared_data), "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    assert "letterpress" in out.stdout
    written = json.loads((tmp_path / "manifest.json").read_text())
    shipped = json.loads((LISTS / "manifest.json").read_text())
    for entry in (*written.values(), *shipped.values()):
        entry.pop("compressed_bytes")  # another liblzma may compress differently
    assert written == shipped
    for entry in written.values():
        for file in (entry["file"], entry["licence_file"]):
            if file is not None:
                written_text = lzma.decompress((tmp_path / file).read_bytes())
                assert written_text == lzma.decompress((LISTS / file).read_bytes()), file
    assert all(p.name.endswith(".xz") or p.suffix == ".json" for p in tmp_path.iterdir())


@pytest.mark.slow
@pytest.mark.skipif(
    importlib.util.find_spec("hatchling") is None,
    reason="hatchling (the build backend) is not installed: pip install hatchling",
)
def test_the_wheel_holds_the_lists_and_their_licences(tmp_path: Path) -> None:
    from hatchling.builders.wheel import WheelBuilder

    (wheel,) = WheelBuilder(str(ROOT)).build(directory=str(tmp_path), versions=["standard"])
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        base = "cpwords/data/wordlists/"
        for entry in packaged_lists().values():
            assert base + entry.file in names
            data = lzma.decompress(z.read(base + entry.file))
            assert hashlib.sha256(data).hexdigest() == SHA256[entry.name]
        for file, start in LICENCES.values():
            assert lzma.decompress(z.read(base + file)).decode().startswith(start)
            assert base + file.removesuffix(".xz") not in names  # no plain copy
        assert base + "manifest.json" in names and base + "README.md" in names
