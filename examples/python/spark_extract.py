"""Validate and extract LLM answers at scale with PySpark and flexmd.

Reads a JSON Lines file of model answers (one object per line with an id and
the answer text), checks each answer against an Output Format Spec and
extracts it, and writes Parquet with one column per spec section, the JSON
object found in the answer, whether the answer is valid, and its errors.

The same code runs in local mode (as here) and on a cluster: only
``--master`` changes. See docs/scaling.md for the figures and for shipping
the flexmd wheel to the executors.

    python examples/python/spark_extract.py generate 20000 answers.jsonl
    python examples/python/spark_extract.py run --spec examples/specs/answer.md \\
        --input answers.jsonl --output answers.parquet --master 'local[2]'
    python examples/python/spark_extract.py run ... --engine baseline   # pure Python peer
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from typing import Any, Dict, Iterator, List, Optional, Tuple


def column_name(section: str) -> str:
    """A section name as a Parquet column: `Short answer` -> `short_answer`."""
    return re.sub(r"[^0-9a-z]+", "_", section.lower()).strip("_")


# ---- the job, with flexmd ------------------------------------------------------


def flexmd_rows(spec_text: str, answers: List[Tuple[int, str]]) -> List[Dict[str, Any]]:
    """Each answer checked and extracted along the spec, as output rows."""
    import flexmd

    spec = flexmd.Spec.parse(spec_text)
    rows = []
    for id_, answer in answers:
        report, plain = spec.check(answer)
        data = flexmd.find_json(answer)
        row: Dict[str, Any] = {
            "id": id_,
            "valid": report["ok"],
            "errors": list(report["errors"]),
            "warnings": list(report["warnings"]),
            "data": None if data is None else json.dumps(data),
        }
        for name in spec.sections:
            value = plain.get(name)
            row[column_name(name)] = value if value is None or isinstance(value, str) else json.dumps(value)
        rows.append(row)
    return rows


# ---- the same job in pure Python: markdown-it-py sections, json_repair JSON -----


def baseline_sections(spec_text: str) -> List[Tuple[str, str]]:
    """(name, kind) of each `- Name — kind` line of the spec block."""
    sections = []
    for line in spec_text.splitlines():
        m = re.match(r"^[-*]\s+([^(][^—]*?)\s+—\s+(.+?)\s*$", line)
        if m:
            sections.append((m.group(1).strip(), m.group(2).strip().lower()))
    return sections


def baseline_rows(spec_text: str, answers: List[Tuple[int, str]]) -> List[Dict[str, Any]]:
    """What flexmd_rows does, with markdown-it-py and json_repair."""
    import json_repair
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark").enable("table")
    sections = baseline_sections(spec_text)
    wanted = {name.lower(): (name, kind) for name, kind in sections}
    rows = []
    for id_, answer in answers:
        tokens = md.parse(answer)
        found: Dict[str, Dict[str, list]] = {}
        current: Optional[str] = None
        depth = 0
        in_item_head = False
        data = None
        for i, token in enumerate(tokens):
            if token.type == "heading_open" and i + 1 < len(tokens):
                title = tokens[i + 1].content.strip().rstrip(":").strip().lower()
                current = title if title in wanted else None
                if current is not None:
                    found[current] = {"text": [], "items": []}
                continue
            if token.type in ("bullet_list_open", "ordered_list_open"):
                depth += 1
            elif token.type in ("bullet_list_close", "ordered_list_close"):
                depth -= 1
            elif token.type == "list_item_open":
                in_item_head = depth == 1
            elif token.type == "fence" and token.info.strip() == "json":
                data = json_repair.loads(token.content)
            elif token.type == "inline" and current is not None and tokens[i - 1].type != "heading_open":
                if depth == 0:
                    found[current]["text"].append(token.content)
                elif in_item_head:
                    found[current]["items"].append(token.content)
                    in_item_head = False
        row: Dict[str, Any] = {"id": id_, "errors": [], "warnings": []}
        for key, (name, kind) in wanted.items():
            section = found.get(key)
            value: Any = None
            if section is None:
                row["errors"].append(f"missing_section:{name}")
            elif "list" in kind:
                said_none = [t.strip().rstrip(".") for t in section["text"]] == ["None"]
                value = None if said_none and not section["items"] else section["items"]
                if section["text"] and not said_none:
                    row["errors"].append(f"section_not_bullets:{name}")
            else:
                text = "\n\n".join(section["text"]).strip()
                value = None if text.rstrip(".") == "None" else text
            row[column_name(name)] = value if value is None or isinstance(value, str) else json.dumps(value)
        row["valid"] = not row["errors"]
        row["data"] = None if data is None or data == "" else json.dumps(data)
        rows.append(row)
    return rows


# ---- Spark -------------------------------------------------------------------------


def output_schema(spec_text: str, engine: str):
    from pyspark.sql.types import ArrayType, BooleanType, LongType, StringType, StructField, StructType

    if engine == "flexmd":
        import flexmd

        names = flexmd.Spec.parse(spec_text).sections
    else:
        names = [name for name, _ in baseline_sections(spec_text)]
    fields = [
        StructField("id", LongType()),
        StructField("valid", BooleanType()),
        StructField("errors", ArrayType(StringType())),
        StructField("warnings", ArrayType(StringType())),
        StructField("data", StringType()),
    ]
    fields += [StructField(column_name(n), StringType()) for n in names]
    return StructType(fields)


def run(spec_path: str, input_path: str, output_path: str, master: Optional[str], engine: str, field: str) -> Dict[str, Any]:
    """The job: JSONL in, Parquet out. Returns what it did and how fast."""
    from pyspark.sql import SparkSession

    spec_text = open(spec_path, encoding="utf-8").read()
    schema = output_schema(spec_text, engine)
    columns = [f.name for f in schema.fields]
    extract = flexmd_rows if engine == "flexmd" else baseline_rows

    def batches(frames: Iterator[Any]) -> Iterator[Any]:
        import pandas as pd

        for frame in frames:
            answers = list(zip(frame["id"].tolist(), frame[field].tolist()))
            yield pd.DataFrame(extract(spec_text, answers), columns=columns)

    builder = SparkSession.builder
    if master:
        # Without --master, spark-submit's (or the cluster's) applies.
        builder = builder.master(master)
    spark = (
        builder.appName(f"flexmd-extract-{engine}")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "8")
        .config("spark.sql.execution.arrow.maxRecordsPerBatch", "2000")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    try:
        cores = spark.sparkContext.defaultParallelism
        spark_master = spark.sparkContext.master
        started = time.perf_counter()
        answers = spark.read.json(input_path).select("id", field).repartition(cores * 2)
        answers.mapInPandas(batches, schema=schema).write.mode("overwrite").parquet(output_path)
        seconds = time.perf_counter() - started
        count = spark.read.parquet(output_path).count()
    finally:
        spark.stop()
    return {
        "engine": engine,
        "master": spark_master,
        "cores": cores,
        "answers": count,
        "seconds": round(seconds, 3),
        "answers_per_s": round(count / seconds, 1),
    }


# ---- test data ------------------------------------------------------------------------


def generate(count: int, seed: int = 1) -> Iterator[Dict[str, Any]]:
    """Answers like a model's to the bundled spec: most valid, some with a
    section missing, a list written as prose, or messy JSON."""
    rng = random.Random(seed)
    words = "cache rate provider checkout quote margin retry window budget latency region shard".split()

    def sentence() -> str:
        return " ".join(rng.choice(words) for _ in range(rng.randint(6, 14))).capitalize() + "."

    for i in range(count):
        sections = {
            "Short answer": sentence(),
            "Long answer": "\n".join(sentence() for _ in range(rng.randint(3, 12))),
            "Reasoning": "\n".join(f"{n}. {sentence()}" for n in range(1, rng.randint(2, 6))),
            "Assumptions": "\n".join(f"- {sentence()}" for _ in range(rng.randint(1, 4))),
            "Unknowns": rng.choice(["None", "- " + sentence()]),
        }
        broken = i % 10
        if broken == 3:
            del sections["Unknowns"]
        elif broken == 7:
            sections["Assumptions"] = sentence()
        parts = [f"## {name}\n{body}\n" for name, body in sections.items()]
        rng.shuffle(parts)
        confidence = round(rng.random(), 2)
        data = (
            f'{{"confidence": {confidence}, "sources": ["doc-{i}", "doc-{i + 1}",],}}'
            if broken == 5
            else json.dumps({"confidence": confidence, "sources": [f"doc-{i}"]})
        )
        answer = f"Here is my answer, and its metadata:\n\n```json\n{data}\n```\n\n" + "\n".join(parts)
        yield {"id": i, "answer": answer}


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    gen = commands.add_parser("generate", help="write N generated answers as JSON Lines")
    gen.add_argument("count", type=int)
    gen.add_argument("output")
    gen.add_argument("--seed", type=int, default=1)
    job = commands.add_parser("run", help="validate and extract the answers of a JSONL into Parquet")
    job.add_argument("--spec", required=True, help="the Output Format Spec (Markdown block or JSON)")
    job.add_argument("--input", required=True, help="JSON Lines, one answer object per line")
    job.add_argument("--output", required=True, help="the Parquet directory to write")
    job.add_argument("--field", default="answer", help="the field holding the answer text")
    job.add_argument("--master", help="Spark master (local[N], yarn, spark://...); default: spark-submit's, else local[*]")
    job.add_argument("--engine", choices=["flexmd", "baseline"], default="flexmd")
    args = parser.parse_args(argv)
    if args.command == "generate":
        with open(args.output, "w", encoding="utf-8") as out:
            for record in generate(args.count, args.seed):
                out.write(json.dumps(record) + "\n")
        return 0
    print(json.dumps(run(args.spec, args.input, args.output, args.master, args.engine, args.field)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
