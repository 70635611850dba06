"""Named schemas and the project config from Python: `Registry` and
`Project` resolve names, `$ref`s, agents and flow steps as the `flexmd`
command does for the same project."""

from __future__ import annotations

import json
from pathlib import Path
from typing import List

import pytest

import flexmd
from conftest import Cli

TICKET = {
    "title": "Ticket",
    "description": "A bug report.",
    "type": "object",
    "required": ["id", "severity"],
    "properties": {
        "id": {"type": "integer"},
        "severity": {"enum": ["low", "high"]},
        "owner": {"type": "string", "default": "triage"},
    },
}


@pytest.fixture()
def project_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project with a config, one custom schema, and a nested directory."""
    monkeypatch.delenv("FLEXMD_CONFIG", raising=False)
    (tmp_path / ".planning" / "schemas").mkdir(parents=True)
    (tmp_path / ".planning" / "schemas-config.json").write_text(
        json.dumps(
            {
                "schemas": {
                    "validation": {"maxRetries": 4, "coerceTypes": True},
                    "agentDefaults": {"triager": "ticket", "elsabro-analyst": "analysis"},
                }
            }
        )
    )
    (tmp_path / ".planning" / "schemas" / "ticket.json").write_text(json.dumps(TICKET))
    (tmp_path / "src" / "deep").mkdir(parents=True)
    return tmp_path


def test_registered_schemas_resolve_by_name_and_by_ref() -> None:
    registry = flexmd.Registry()
    registry.register("point", {"type": "object", "required": ["x", "y"]})
    registry.register(
        "line", {"type": "array", "items": {"$ref": "flexmd://schemas/point"}}
    )
    assert registry.names() == [
        "analysis", "implementation", "review", "verification", "plan", "point", "line",
    ]
    assert flexmd.validate([{"x": 1, "y": "2"}], "line", registry=registry) == [
        {"x": 1, "y": "2"}
    ]
    with pytest.raises(flexmd.ValidationError) as e:
        flexmd.validate([{"x": 1}], "line", registry=registry)
    assert [(x["path"], x["code"]) for x in e.value.errors] == [("[0].y", "missing_required")]
    # elsabro's ids name the same schema.
    assert registry.schema("elsabro://schemas/point-result") == registry.schema("point")
    # Unknown names say which are known; the module-level functions do not
    # see a registry's own schemas.
    with pytest.raises(flexmd.SchemaError, match="no schema named `point`.*analysis"):
        flexmd.validate({}, "point")
    with pytest.raises(flexmd.SchemaError, match="known: .*point, line"):
        registry.schema("polygon")


def test_a_failed_registration_changes_nothing() -> None:
    registry = flexmd.Registry(predefined=False)
    assert len(registry) == 0
    registry.register("a", {"type": "string"})
    with pytest.raises(flexmd.SchemaError, match="schema `b` cannot be compiled"):
        registry.register("b", {"type": 12})
    with pytest.raises(flexmd.SchemaError, match="dangling"):
        registry.register("dangling", {"$ref": "elsewhere.json"})
    assert registry.names() == ["a"]
    assert "b" not in registry and "a" in registry


def test_pydantic_models_register_as_their_schema() -> None:
    pydantic = pytest.importorskip("pydantic")

    class Point(pydantic.BaseModel):
        x: int
        y: int

    registry = flexmd.Registry(predefined=False)
    registry.register("point", Point)
    assert registry.schema("point") == Point.model_json_schema()
    assert flexmd.loads('{"x": "1", "y": 2}', schema="point", registry=registry) == {
        "x": 1,
        "y": 2,
    }


def test_load_dir_is_all_or_nothing(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_text(json.dumps({"type": "string"}))
    (tmp_path / "b.json").write_text("{not json")
    registry = flexmd.Registry(predefined=False)
    with pytest.raises(flexmd.SchemaError, match="b.json"):
        registry.load_dir(tmp_path)
    assert registry.names() == []
    (tmp_path / "b.json").write_text(json.dumps({"type": "integer"}))
    assert registry.load_dir(tmp_path) == ["a", "b"]


def test_project_is_found_from_a_subdirectory(project_dir: Path) -> None:
    project = flexmd.Project.find(project_dir / "src" / "deep")
    assert project.root == project_dir
    assert project.path == project_dir / ".planning" / "schemas-config.json"
    assert project.config["schemas"]["validation"] == {
        "strict": True,
        "coerceTypes": True,
        "applyDefaults": True,
        "retryOnError": True,
        "maxRetries": 4,
    }
    assert "ticket" in project.registry().names()
    assert project.schema_for_agent("triager") == "ticket"
    with pytest.raises(flexmd.SchemaError, match="agents: triager, elsabro-analyst"):
        project.schema_for_agent("planner")
    assert flexmd.Project.load(project.path).root == project_dir


def test_flow_steps_name_schema_and_retries(project_dir: Path) -> None:
    project = flexmd.Project.find(project_dir)
    step = {"id": "analyze", "type": "agent", "agent": "elsabro-analyst"}
    assert project.step_schema(step) == "analysis"
    assert project.step_retries(step) == 4
    step["config"] = {"retryOnSchemaError": True, "maxSchemaRetries": 1}
    assert project.step_retries(step) == 1
    step["config"] = {"retryOnSchemaError": False}
    assert project.step_retries(step) == 0
    assert project.step_schema({"outputSchema": "ticket", "agent": "x"}) == "ticket"
    with pytest.raises(flexmd.SchemaError):
        project.step_schema({"id": "lonely"})
    with pytest.raises(ValueError, match="not a flow step"):
        project.step_retries({"config": {"maxSchemaRetries": "two"}})


def test_a_malformed_config_is_a_schema_error(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    path.write_text(json.dumps({"schemas": {"validation": {"maxRetries": "two"}}}))
    with pytest.raises(flexmd.SchemaError, match="maxRetries"):
        flexmd.Project.load(path)
    with pytest.raises(flexmd.SchemaError, match="missing.json: No such file"):
        flexmd.Project.load(tmp_path / "missing.json")
    path.write_bytes(b"\xff\xfe{")
    with pytest.raises(flexmd.SchemaError, match="c.json: stream did not contain valid UTF-8"):
        flexmd.Project.load(path)


def test_project_matches_the_cli(cli: Path, project_dir: Path) -> None:
    """The same project, from Python and from the `flexmd` command run in it."""
    here = Cli(cli, project_dir / "src")
    project = flexmd.Project.find(project_dir / "src")
    registry = project.registry()
    assert registry.summaries() == here.json("schema", "list")
    assert registry.schema("ticket") == here.json("schema", "show", "ticket")
    for data in ['{"id": "7", "severity": "HIGH"}', '{"id": 7, "severity": "high"}', '{"id": []}']:
        (project_dir / "data.json").write_text(data)
        expected = here.json(
            "schema", "validate", "--agent", "triager", "--json", "--hints", project_dir / "data.json"
        )
        got = flexmd.validate(
            data,
            project.schema_for_agent("triager"),
            registry=registry,
            report=True,
            hints=True,
        )
        assert got == expected, data


def test_ask_resolves_names_in_its_registry() -> None:
    registry = flexmd.Registry(predefined=False)
    registry.register("ticket", TICKET)
    answers: List[str] = ['{"id": 1}', '{"id": 1, "severity": "low"}']
    prompts: List[str] = []

    def llm(prompt: str) -> str:
        prompts.append(prompt)
        return answers.pop(0)

    data = flexmd.ask(llm, "File it.", schema="ticket", registry=registry)
    assert data == {"id": 1, "severity": "low", "owner": "triage"}
    assert "severity" in prompts[1]
    # A session keeps the schemas it started with.
    registry.register("ticket", {"type": "array"})
    assert flexmd.validate([], "ticket", registry=registry) == []
