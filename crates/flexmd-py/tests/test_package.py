"""The package as installed: typed, its stubs in step with what it exports,
and no input makes it crash."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

import flexmd

PACKAGE = Path(flexmd.__file__).parent


def stub_names() -> set:
    tree = ast.parse((PACKAGE / "__init__.pyi").read_text(encoding="utf-8"))
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.ImportFrom):
            names.update(a.asname or a.name for a in node.names)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def test_the_package_is_typed() -> None:
    assert (PACKAGE / "py.typed").exists()


def test_every_export_has_a_stub_and_a_docstring() -> None:
    stubs = stub_names()
    missing = [n for n in flexmd.__all__ if n not in stubs]
    assert missing == []
    undocumented = [
        n for n in flexmd.__all__ if n != "__version__" and not (getattr(flexmd, n).__doc__ or "").strip()
    ]
    assert undocumented == []


def test_dir_shows_the_api_only() -> None:
    assert dir(flexmd) == sorted(flexmd.__all__)
    assert "_flexmd" not in dir(flexmd) and "inspect" not in dir(flexmd)


def test_every_method_of_the_classes_has_a_stub() -> None:
    tree = ast.parse((PACKAGE / "__init__.pyi").read_text(encoding="utf-8"))
    stubbed = {
        node.name: {f.name for f in node.body if isinstance(f, ast.FunctionDef)}
        for node in tree.body
        if isinstance(node, ast.ClassDef)
    }
    for cls in (flexmd.Spec, flexmd.Artifact, flexmd.ToolSet, flexmd.Turn, flexmd.Registry, flexmd.Project):
        public = {n for n in dir(cls) if not n.startswith("_")}
        assert public - stubbed[cls.__name__] == set(), cls.__name__


ALPHABET = '{}[]":,\'`#*-_|>\n\r\t 0123456789abcnulltrue@=é\u2028\x00\ufeff'


def texts(seed: int, count: int):
    rng = random.Random(seed)
    for _ in range(count):
        yield "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 200)))
    yield "[" * 100_000
    yield "{\"a\":" * 50_000
    yield "> " * 50_000 + "x"
    yield "- " * 20_000 + "x"
    yield "```json\n" + "[" * 100_000


def test_no_input_crashes_the_parsers() -> None:
    spec = flexmd.Spec.default()
    for text in texts(7, 400):
        try:
            flexmd.loads(text)
        except flexmd.JSONNotFound:
            pass
        flexmd.find_json(text, all=True, repairs=True)
        flexmd.detect_objects(text)
        flexmd.parse_any(text)
        flexmd.parse_flexmd(text, meta="infer")
        flexmd.outline(text)
        spec.validate(text)
        spec.to_json(text)
        flexmd.validate(text, "plan", report=True)
        for kind in ("text", "markdown", "json"):
            try:
                a = flexmd.Artifact.from_text(text, kind=kind)
            except flexmd.ArtifactError:
                continue
            a.head(3)
            if kind == "markdown":
                a.md_headings()
                try:
                    a.md_ast()
                except flexmd.ArtifactError:
                    pass
            if kind == "json":
                try:
                    a.json_keys()
                except flexmd.ArtifactError:
                    pass


def test_hostile_queries_are_errors() -> None:
    a = flexmd.Artifact.from_text('{"a": 1}', kind="json")
    with pytest.raises(flexmd.ToolCallError):
        a.json_get("$" + "[" * 10_000)
    with pytest.raises(flexmd.ToolCallError):
        a.grep("(a{1000}){1000}")


def test_the_stubs_type_check() -> None:
    api = pytest.importorskip("mypy.api", reason="mypy is not installed (pip install mypy)")
    usage = Path(__file__).with_name("typed_usage.py")
    out, err, code = api.run(["--strict", "--no-incremental", "--no-error-summary", str(usage)])
    # mypy versions differ in spelling builtins (`builtins.dict` or `dict`).
    notes = [
        line.split(": ", 1)[1].replace("builtins.", "")
        for line in out.splitlines()
        if ": note: " in line
    ]
    errors = [line for line in out.splitlines() if ": error: " in line]
    assert errors == [], err
    assert notes == [
        'note: Revealed type is "typed_usage.Review"',
        'note: Revealed type is "typed_usage.Review"',
        'note: Revealed type is "dict[str, Any]"',
        'note: Revealed type is "typed_usage.Review"',
        'note: Revealed type is "dict[str, Any]"',
        'note: Revealed type is "Any"',
        'note: Revealed type is "typed_usage.Review"',
    ]


def stub_signatures() -> dict:
    """`name` or `Class.name` -> the parameter names and defaults the stubs give
    (the implementation's, for functions with overloads)."""
    tree = ast.parse((PACKAGE / "__init__.pyi").read_text(encoding="utf-8"))

    def params(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> list:
        args = fn.args
        positional = args.posonlyargs + args.args
        defaults = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
        out = [(a.arg, ast.unparse(d) if d is not None else None) for a, d in zip(positional, defaults)]
        out += [
            (a.arg, ast.unparse(d) if d is not None else None)
            for a, d in zip(args.kwonlyargs, args.kw_defaults)
        ]
        return [p for p in out if p[0] != "self"]

    found = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found[node.name] = params(node)  # the last definition: the implementation
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and not item.name.startswith("__"):
                    found[f"{node.name}.{item.name}"] = params(item)
    return found


def runtime_params(obj) -> list:
    import inspect

    try:
        signature = inspect.signature(obj)
    except ValueError:  # a property
        return []
    return [
        (name, None if p.default is inspect.Parameter.empty else repr(p.default))
        for name, p in signature.parameters.items()
        if name != "self"
    ]


def test_the_stubs_name_the_parameters_and_defaults_the_code_has() -> None:
    stubs = stub_signatures()
    checked = 0
    for name in flexmd.__all__:
        obj = getattr(flexmd, name)
        if callable(obj) and not isinstance(obj, type):
            assert stubs[name] == runtime_params(obj), name
            checked += 1
    for cls in (flexmd.Spec, flexmd.Artifact, flexmd.ToolSet, flexmd.Turn, flexmd.Registry, flexmd.Project):
        for name in dir(cls):
            member = getattr(cls, name)
            if name.startswith("_") or not callable(member):
                continue
            assert stubs[f"{cls.__name__}.{name}"] == runtime_params(member), f"{cls.__name__}.{name}"
            checked += 1
    assert checked > 40
