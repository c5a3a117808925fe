"""The k-mers of a real genome (issue 46): a FASTA file's distinct forward-strand k-mers equal
brute-force slicing, shuffling keeps the set, a suite's ``fasta`` table builds the instance (and
is skipped, with the reason, when its file is absent), bad files and sizes are refused; Debian's
phage lambda and C. elegans chunk, where installed."""

from __future__ import annotations

import gzip
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cpwords.bench import load_suite, run_tasks
from cpwords.core.errors import InputError
from cpwords.core.result import Status
from cpwords.superstring.genomes import genome_kmers
from cpwords.superstring.spec import make_instance, solve_superstring

LAMBDA = Path("/usr/share/doc/bowtie2/examples/reference/lambda_virus.fa.gz")
CELEGANS = Path("/usr/share/htslib-test/test/ce.fa")


def fasta_text(records: list[tuple[str, str]], width: int = 7) -> str:
    """A FASTA file of ``(name, sequence)`` records, each sequence wrapped every ``width``."""
    lines = []
    for name, seq in records:
        lines.append(f">{name} some description")
        lines += [seq[i : i + width] for i in range(0, len(seq), width)]
    return "\n".join(lines) + "\n"


def brute_force(records: list[tuple[str, str]], k: int) -> tuple[list[str], int]:
    """Every window of every sequence, lower-cased, by slicing: the acgt ones once each in the
    order of their first occurrence, and how many others there were."""
    kmers: list[str] = []
    skipped = 0
    for _, seq in records:
        for i in range(len(seq) - k + 1):
            w = seq[i : i + k].lower()
            if set(w) <= set("acgt"):
                if w not in kmers:
                    kmers.append(w)
            else:
                skipped += 1
    return kmers, skipped


sequences = st.lists(
    st.tuples(
        st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,5}", fullmatch=True),
        st.text(alphabet="acgtACGTNnRy", min_size=0, max_size=60),
    ),
    min_size=1,
    max_size=4,
    unique_by=lambda r: r[0],
)


@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(records=sequences, k=st.integers(1, 9), width=st.integers(1, 20))
def test_the_kmers_are_those_of_brute_force_slicing(
    tmp_path: Path, records: list[tuple[str, str]], k: int, width: int
) -> None:
    path = tmp_path / "g.fa"
    path.write_text(fasta_text(records, width))
    expected, skipped = brute_force(records, k)
    if not expected:
        with pytest.raises(InputError, match=f"no {k}-mer of plain bases"):
            genome_kmers(path, k)
        return
    found = genome_kmers(path, k)
    assert list(found.kmers) == expected  # in the order of their first occurrence
    assert found.skipped == skipped
    assert found.records == tuple(name for name, _ in records)
    assert found.bases == sum(len(s) for _, s in records)


def test_shuffling_keeps_the_set_and_follows_the_seed(tmp_path: Path) -> None:
    rng = random.Random(5)
    genome = "".join(rng.choice("ACGT") for _ in range(3000))
    path = tmp_path / "g.fa"
    path.write_text(fasta_text([("chr", genome)], 60))
    first = genome_kmers(path, 11)
    one, again, two = (genome_kmers(path, 11, seed=s).kmers for s in (1, 1, 2))
    assert set(one) == set(two) == set(first.kmers) and len(one) == len(first.kmers)
    assert one == again and one != two and one != first.kmers
    expected = list(first.kmers)
    random.Random(1).shuffle(expected)
    assert list(one) == expected  # random.Random(seed).shuffle of the first-occurrence order


def test_a_compressed_file_reads_as_the_plain_one(tmp_path: Path) -> None:
    text = fasta_text([("a", "ACGTTGCAAC"), ("b", "ttgcaNNacgt")])
    (tmp_path / "g.fa").write_text(text)
    (tmp_path / "g.fa.gz").write_bytes(gzip.compress(text.encode()))
    plain, packed = (genome_kmers(tmp_path / name, 4, 3) for name in ("g.fa", "g.fa.gz"))
    assert packed.kmers == plain.kmers and packed.skipped == plain.skipped == 5
    assert (packed.records, packed.bases) == (plain.records, plain.bases) == (("a", "b"), 21)


def test_records_are_chosen_by_name(tmp_path: Path) -> None:
    (tmp_path / "g.fa").write_text(fasta_text([("one", "AAAACCCC"), ("two", "GGGGTTTT")]))
    found = genome_kmers(tmp_path / "g.fa", 7, records=["two"])
    assert found.kmers == ("ggggttt", "gggtttt") and found.records == ("two",)
    whole = genome_kmers(tmp_path / "g.fa", 7, records=["one some description"])
    assert whole.records == ("one",)
    with pytest.raises(InputError, match="no record three in the FASTA file"):
        genome_kmers(tmp_path / "g.fa", 7, records=["two", "three"])


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"cat\natom\n", "is not a FASTA file: .*Expected '>'"),
        (b"@read\nACGT\n+\nIIII\n", "is not a FASTA file: .*Expected '>'"),
        (b"", "is not a FASTA file: it holds no record"),
        (b">x\nAC\xc3\xa9GT\n", "is not a FASTA file: .*ASCII"),
        (b">x\nAC\xffGT\n", "is not a FASTA file: it holds bytes that are not text"),
        (b"\x00\x01binary", r"is not a FASTA file: .*\\x00\\x01binary"),
    ],
)
def test_a_file_that_is_not_fasta_is_refused(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "g.fa"
    path.write_bytes(content)
    with pytest.raises(InputError, match=message):
        genome_kmers(path, 3)


def test_missing_unreadable_files_and_bad_sizes_are_refused(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"the FASTA file .*absent\.fa is absent"):
        genome_kmers(tmp_path / "absent.fa", 31)
    with pytest.raises(InputError, match="is a folder, not a FASTA file"):
        genome_kmers(tmp_path, 31)
    broken = gzip.compress(b">x\n" + b"ACGT" * 100 + b"\n")[:30]
    (tmp_path / "g.fa.gz").write_bytes(broken)
    with pytest.raises(InputError, match=r"cannot read the FASTA file .*g\.fa\.gz"):
        genome_kmers(tmp_path / "g.fa.gz", 3)
    (tmp_path / "g.fa").write_text(">x\nACGT\n")
    for k in (0, -3, 2.5, True, "3"):
        with pytest.raises(InputError, match="bad k-mer length"):
            genome_kmers(tmp_path / "g.fa", k)  # type: ignore[arg-type]
    with pytest.raises(InputError, match="no 5-mer of plain bases"):
        genome_kmers(tmp_path / "g.fa", 5)


def test_a_fasta_table_builds_the_instance(tmp_path: Path) -> None:
    rng = random.Random(3)
    genome = "".join(rng.choice("acgt") for _ in range(400))
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "g.fa").write_text(fasta_text([("chr1", genome), ("chr2", "acgtacgt")]))
    table = {"fasta": {"path": "data/g.fa", "k": 9, "seed": 4, "records": "chr1"}}
    inst = make_instance(table, tmp_path)
    assert set(inst.words) == {genome[i : i + 9] for i in range(len(genome) - 8)}
    assert inst.source == "9-mers of g.fa (chr1)"
    res = solve_superstring(inst, time_limit=60)
    assert res.status is Status.OPTIMAL and res.objective is not None
    assert res.objective <= len(genome)  # the genome holds them all


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"fasta": "g.fa"}, "'fasta' is a table with a path"),
        ({"fasta": {"k": 3}}, "'fasta' is a table with a path"),
        ({"fasta": {"path": "g.fa", "kk": 3}}, "unknown keys in 'fasta': kk"),
        ({"fasta": {"path": "g.fa", "k": 0}}, "bad k-mer length k=0"),
        ({"fasta": {"path": "g.fa", "seed": "x"}}, "seed must be a whole number"),
        ({"fasta": {"path": "g.fa", "records": [1]}}, "records are names"),
        ({"fasta": {"path": "absent.fa"}}, "file not found: .*absent.fa"),
        ({"fasta": {"path": "${CPWORDS_NO_SUCH_VARIABLE}"}}, "names an unset variable"),
        ({"fasta": {"path": "g.fa"}, "kmers": {"k": 3}}, "exactly one of"),
    ],
)
def test_bad_fasta_tables_are_refused(
    tmp_path: Path, table: dict[str, object], message: str
) -> None:
    (tmp_path / "g.fa").write_text(">x\nACGTACGT\n")
    with pytest.raises(InputError, match=message):
        make_instance(table, tmp_path)


def test_the_bench_skips_an_absent_genome_with_the_reason(tmp_path: Path) -> None:
    (tmp_path / "g.fa").write_text(fasta_text([("x", "ACGTTGCATGCA")]))
    suite = tmp_path / "s.toml"
    suite.write_text(
        '[suite]\npuzzle = "superstring"\n'
        '[[instances]]\nname = "here"\nfasta = { path = "g.fa", k = 4 }\n'
        '[[instances]]\nname = "gone"\nfasta = { path = "gone.fa.gz", k = 4 }\n'
        '[[methods]]\nmethod = "greedy"\n'
    )
    summary = run_tasks(load_suite(suite).tasks, tmp_path / "r.jsonl", executor="serial")
    assert summary.ran == 1 and summary.errors == 0 and summary.invalid == 1
    assert "'gone'" in summary.bad_instances[0] and "gone.fa.gz" in summary.bad_instances[0]


@pytest.mark.skipif(
    not LAMBDA.exists(), reason=f"{LAMBDA} is absent: apt-get install bowtie2-examples"
)
def test_phage_lambda_has_48472_distinct_31mers() -> None:
    found = genome_kmers(LAMBDA, 31, seed=1)
    assert len(found.kmers) == 48_472 and found.bases == 48_502 and found.skipped == 0


@pytest.mark.slow
@pytest.mark.skipif(
    not CELEGANS.exists(), reason=f"{CELEGANS} is absent: apt-get install htslib-test"
)
def test_the_celegans_chunk_has_977555_distinct_31mers() -> None:
    found = genome_kmers(CELEGANS, 31, records=["CHROMOSOME_I"])
    assert len(found.kmers) == 977_555 and found.bases == 1_009_800 and found.skipped == 0
