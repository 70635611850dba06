"""examples/python/spark_extract.py: the PySpark job runs in local mode on
a few hundred generated answers and writes what flexmd extracts; its pure
Python peer (the scaling baseline) does the same job."""

from __future__ import annotations

import importlib.util
import json
import math
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List

import pytest

from conftest import ROOT, SPEC

EXAMPLE = ROOT / "examples" / "python" / "spark_extract.py"


def load_example():
    spec = importlib.util.spec_from_file_location("spark_extract", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


def answers(count: int) -> List[Any]:
    return [(r["id"], r["answer"]) for r in load_example().generate(count)]


def test_the_generated_answers_are_mostly_valid() -> None:
    example = load_example()
    rows = example.flexmd_rows(SPEC.read_text(encoding="utf-8"), answers(100))
    invalid = {r["id"]: r["errors"] for r in rows if not r["valid"]}
    assert invalid == {
        **{i: ["missing_section:Unknowns"] for i in range(3, 100, 10)},
        **{i: ["section_not_bullets:Assumptions"] for i in range(7, 100, 10)},
    }
    assert json.loads(rows[5]["data"])["sources"] == ["doc-5", "doc-6"]  # repaired
    assert rows[0]["reasoning"].startswith('["')


def test_the_pure_python_baseline_does_the_same_job() -> None:
    pytest.importorskip("markdown_it", reason="the baseline needs markdown-it-py (pip install markdown-it-py)")
    pytest.importorskip("json_repair", reason="the baseline needs json_repair (pip install json_repair)")
    example = load_example()
    spec = SPEC.read_text(encoding="utf-8")
    some = answers(300)
    assert example.baseline_rows(spec, some) == example.flexmd_rows(spec, some)


def spark_missing() -> str:
    if shutil.which("java") is None:
        return "no Java on PATH: PySpark's local mode needs a JRE (apt-get install default-jre-headless)"
    for module in ("pyspark", "pandas", "pyarrow"):
        if importlib.util.find_spec(module) is None:
            return f"{module} is not installed (pip install 'flexmd[spark]')"
    return ""


def cell(value: Any) -> Any:
    """A Parquet cell as the row dict holds it."""
    if isinstance(value, float) and math.isnan(value):
        return None
    if hasattr(value, "tolist"):
        return value.tolist()
    return value


@pytest.mark.skipif(bool(spark_missing()), reason=spark_missing() or "spark ready")
def test_the_spark_job_writes_a_column_per_section(tmp_path: Path) -> None:
    import pyarrow.parquet as pq

    source = tmp_path / "answers.jsonl"
    output = tmp_path / "answers.parquet"
    subprocess.run([sys.executable, str(EXAMPLE), "generate", "300", str(source)], check=True)
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), "run", "--spec", str(SPEC), "--input", str(source),
         "--output", str(output), "--master", "local[2]"],
        capture_output=True, text=True, timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    assert (summary["engine"], summary["cores"], summary["answers"]) == ("flexmd", 2, 300)

    table = pq.read_table(output).to_pandas()
    assert list(table.columns) == [
        "id", "valid", "errors", "warnings", "data",
        "short_answer", "long_answer", "reasoning", "assumptions", "unknowns",
    ]
    written: Dict[int, Dict[str, Any]] = {
        int(r["id"]): {k: cell(v) for k, v in r.items()} for r in table.to_dict("records")
    }
    expected = load_example().flexmd_rows(SPEC.read_text(encoding="utf-8"), answers(300))
    assert sorted(written) == list(range(300))
    assert [written[r["id"]] for r in expected] == expected
    assert sum(1 for r in expected if not r["valid"]) == 60
