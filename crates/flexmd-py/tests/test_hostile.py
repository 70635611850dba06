"""Hostile data through the Python API: deeply nested, circular or
non-JSON values are clear exceptions, never a crashed interpreter. Each case
runs in a child interpreter, so a crash fails its test instead of ending the
suite, within a stated time."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

# Every case ends within this many seconds, with an exception or a result.
LIMIT = 60

CASES = {
    # 20 000 deep: `json.dumps` raises RecursionError; flexmd must not crash.
    "validate_deep_dict": """
        d = {}
        for _ in range(20_000):
            d = {"a": d}
        flexmd.validate(d, {"type": "object"})
    """,
    "validate_deep_list": """
        d = []
        for _ in range(20_000):
            d = [d]
        flexmd.validate(d, {})
    """,
    "spec_from_json_deep": """
        d = {}
        for _ in range(20_000):
            d = {"sections": d}
        flexmd.Spec.from_json(d)
    """,
    "toolset_call_deep": """
        art = flexmd.Artifact.from_text("x\\n" * 10, call_id="log")
        tools = flexmd.forge_tools([art])
        d = {}
        for _ in range(20_000):
            d = {"a": d}
        tools.call({"name": "artifact_head", "arguments": d})
    """,
    "toolset_call_nested_lists": """
        art = flexmd.Artifact.from_text("x\\n", call_id="log")
        calls = []
        for _ in range(20_000):
            calls = [calls]
        flexmd.forge_tools([art]).call(calls)
    """,
    # 500 deep in a thread whose stack is 256 KB.
    "small_thread_stack": """
        import threading
        threading.stack_size(256 * 1024)
        d = {}
        for _ in range(500):
            d = {"a": d}
        errors = []
        def work():
            try:
                flexmd.validate(d, {"type": "object"})
            except Exception as e:
                errors.append(e)
        t = threading.Thread(target=work)
        t.start()
        t.join()
        raise errors[0]
    """,
    "circular": """
        d = {}
        d["self"] = d
        flexmd.validate(d, {})
    """,
    "set": "flexmd.validate({1, 2}, {})",
    "nan": "flexmd.validate(float('nan'), {})",
    "lone_surrogate": "flexmd.validate({'a': '\\ud800'}, {})",
    "huge_int": "flexmd.validate(10 ** 30, {})",
    "int_keys": "flexmd.validate({1: 'a'}, {})",
    "negative_count": "flexmd.Artifact.from_text('a\\nb\\n').head(-1)",
    "fractional_count": "flexmd.Artifact.from_text('a\\nb\\n').tail(1.5)",
    "bool_count": "flexmd.Artifact.from_text('a\\nb\\n').head(True)",
    "negative_line": "flexmd.Artifact.from_text('# A\\n', kind='markdown').md_text(-1)",
    "depth_out_of_range": "flexmd.Artifact.from_text('# A\\n', kind='markdown').md_headings(9)",
    "lone_surrogate_text": "flexmd.find_json('{\"a\": \"\\ud800\"}')",
}

EXPECTED = {
    "validate_deep_dict": ("NestingError", "nests deeper than 128 levels"),
    "validate_deep_list": ("NestingError", "nests deeper than 128 levels"),
    "spec_from_json_deep": ("NestingError", "nests deeper than 128 levels"),
    "toolset_call_deep": ("NestingError", "nests deeper than 128 levels"),
    "toolset_call_nested_lists": ("NestingError", "nests deeper than 128 levels"),
    "small_thread_stack": ("NestingError", "nests deeper than 128 levels"),
    "circular": ("NestingError", "a container holds itself"),
    "set": ("TypeError", "the data is not JSON data: a set has no JSON form"),
    "nan": ("ValueError", "NaN is not a JSON number"),
    "lone_surrogate": ("ValueError", "lone surrogate"),
    "huge_int": ("ValueError", "does not fit in 64 bits"),
    "int_keys": ("TypeError", "dict keys must be strings, not int"),
    "negative_count": ("ValueError", "n must be a whole number ≥ 0, not -1"),
    "fractional_count": ("ValueError", "n must be a whole number ≥ 0, not 1.5"),
    "bool_count": ("ValueError", "n must be a whole number ≥ 0, not True"),
    "negative_line": ("ValueError", "start must be a whole number ≥ 0, not -1"),
    "depth_out_of_range": ("ValueError", "depth must be 1 to 6, not 9"),
    # Python's own error for text with no UTF-8 form (a ValueError).
    "lone_surrogate_text": ("UnicodeEncodeError", "surrogates not allowed"),
}


def run_case(body: str) -> subprocess.CompletedProcess[str]:
    script = "import flexmd\n" + textwrap.dedent(body) + "\n"
    return subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=LIMIT
    )


@pytest.mark.parametrize("case", sorted(CASES))
def test_hostile_data_is_an_exception_not_a_crash(case: str) -> None:
    done = run_case(CASES[case])
    assert done.returncode == 1, f"should raise, not crash (exit {done.returncode}): {done.stderr}"
    name, message = EXPECTED[case]
    # The last line but pyo3's note naming the argument.
    last = [line for line in done.stderr.strip().splitlines() if not line.startswith("while processing")][-1]
    assert last.split(":")[0].endswith(name), last
    assert message in last, last


def test_nesting_error_is_a_recursion_error_and_a_flexmd_error() -> None:
    import flexmd

    d: dict = {}
    for _ in range(200):
        d = {"a": d}
    with pytest.raises(RecursionError):
        flexmd.validate(d, {})
    with pytest.raises(flexmd.FlexmdError):
        flexmd.validate(d, {})


def test_data_at_the_bound_is_taken() -> None:
    import flexmd

    d: dict = {}
    for _ in range(127):
        d = {"a": d}
    assert flexmd.validate(d, {"type": "object"}) == d


# Ctrl-C during a long native call: the child starts the call on a large
# file, the test sends SIGINT, and the child must raise KeyboardInterrupt
# within INTERRUPT_LIMIT seconds of it (the count itself takes several
# seconds even in a release build: 40 MB/s).
INTERRUPT_LIMIT = 2.0

INTERRUPTIBLE = {
    "estimate_tokens": "art.estimate_tokens()",
    "toolset_call": (
        "flexmd.forge_tools([art]).call("
        "{'name': 'artifact_estimate_tokens', 'arguments': {'callId': 'big'}})"
    ),
    "call_page": (
        "flexmd.forge_tools([art]).call_page("
        "{'name': 'artifact_estimate_tokens', 'arguments': {'callId': 'big'}}, max_tokens=100)"
    ),
    "md_text": "md.md_text()",
}


@pytest.fixture(scope="module")
def big_file(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("big") / "big.md"
    block = ("## heading\n\n" + "some words of *Markdown* text, and more of them\n" * 40) * 1000
    with open(path, "w") as f:
        while f.tell() < 120_000_000:
            f.write(block)
    return str(path)


@pytest.mark.parametrize("case", sorted(INTERRUPTIBLE))
def test_ctrl_c_stops_a_long_call(case: str, big_file: str) -> None:
    import signal
    import time

    script = textwrap.dedent(
        f"""
        import signal, sys, time, flexmd
        # Python leaves Ctrl-C alone when it starts with SIGINT ignored (a
        # job started with `&` by a shell without job control): take it.
        signal.signal(signal.SIGINT, signal.default_int_handler)
        art = flexmd.Artifact.open({big_file!r}, kind="text", call_id="big")
        md = flexmd.Artifact.open({big_file!r}, kind="markdown", call_id="md")
        print("ready", flush=True)
        try:
            {INTERRUPTIBLE[case]}
        except KeyboardInterrupt:
            print("interrupted", flush=True)
            sys.exit(3)
        print("finished", flush=True)
        """
    )
    child = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "ready"
        time.sleep(0.3)
        child.send_signal(signal.SIGINT)
        sent = time.monotonic()
        out, err = child.communicate(timeout=LIMIT)
        waited = time.monotonic() - sent
    finally:
        child.kill()
    assert child.returncode == 3, f"exit {child.returncode}: {out} {err}"
    assert out.strip() == "interrupted"
    assert waited < INTERRUPT_LIMIT, f"KeyboardInterrupt came {waited:.2f} s after Ctrl-C"
