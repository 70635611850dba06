"""Real grammar engines for the grammar tests: llguidance (Lark, and GBNF
through its own GBNF reader) and XGrammar (EBNF and GBNF), each run byte by
byte with a vocabulary of the 256 bytes.

XGrammar imports torch and transformers at import time although grammar
parsing and matching use neither; where they are not installed (CI installs
XGrammar without its multi-gigabyte dependencies), empty stand-ins are put in
their place for the import, and nothing of them is ever called.
`cargo xtask python` installs both engines and sets FLEXMD_REQUIRE_ENGINES, so
there a missing engine fails the suite instead of skipping it."""

from __future__ import annotations

import os
import sys
import types
from typing import Any, Callable, Optional

import pytest


def _missing(name: str, reason: str) -> None:
    if os.environ.get("FLEXMD_REQUIRE_ENGINES"):
        pytest.fail(f"{name} is required here but {reason}")
    pytest.skip(f"{name} is not installed ({reason})")


class _Anything:
    """A stand-in whose every attribute and call gives another stand-in."""

    def __init__(self, name: str = "stand-in") -> None:
        self._name = name

    def __getattr__(self, name: str) -> "_Anything":
        return _Anything(name)

    def __call__(self, *args: Any, **kwargs: Any) -> "_Anything":
        return _Anything()

    def __hash__(self) -> int:
        return hash(self._name)


def _stand_in(name: str, classes: tuple = ()) -> bool:
    """Puts a stand-in for module `name` in place unless it is installed;
    whether it did."""
    try:
        __import__(name)
        return False
    except ImportError:
        pass
    module = types.ModuleType(name)
    # A package with no submodules: `import torch.version` fails as it would
    # without torch, and the importer's fallback takes over.
    module.__path__ = []  # type: ignore[attr-defined]
    for cls in classes:
        setattr(module, cls, type(cls, (), {}))

    def attribute(attr: str) -> Any:
        if attr.startswith("__"):
            raise AttributeError(attr)
        return _Anything(attr)

    module.__getattr__ = attribute  # type: ignore[attr-defined]
    sys.modules[name] = module
    return True


def xgrammar() -> Any:
    placed = [
        name
        for name, classes in [
            ("torch", ("Tensor",)),
            (
                "transformers",
                ("PreTrainedTokenizerBase", "PreTrainedTokenizerFast", "LogitsProcessor"),
            ),
        ]
        if _stand_in(name, classes)
    ]
    try:
        import xgrammar as xg  # noqa: PLC0415
        from xgrammar.testing import _is_grammar_accept_string  # noqa: F401, PLC0415
    except ImportError as e:
        _missing("xgrammar", str(e))
    finally:
        # Only XGrammar's import sees them: later imports of torch fail as
        # they would without it.
        for name in placed:
            sys.modules.pop(name, None)
    return xg


def xgrammar_accepts(grammar_text: str) -> Callable[[str], bool]:
    xg = xgrammar()
    from xgrammar.testing import _is_grammar_accept_string  # noqa: PLC0415

    grammar = xg.Grammar.from_ebnf(grammar_text, root_rule_name="root")
    return lambda text: bool(_is_grammar_accept_string(grammar, text))


class _Bytes:
    """A tokenizer whose tokens are the 256 bytes (and an end token)."""

    eos_token_id = 256
    bos_token_id: Optional[int] = None
    tokens = [bytes([i]) for i in range(256)] + [b"<eos>"]
    special_token_ids = [256]

    def __call__(self, s: Any) -> list:
        return list(s.encode("utf-8") if isinstance(s, str) else s)


_TOKENIZER: Any = None


def llguidance_accepts(lark: str) -> Callable[[str], bool]:
    global _TOKENIZER
    try:
        import llguidance as llg  # noqa: PLC0415
    except ImportError as e:
        _missing("llguidance", str(e))
    if _TOKENIZER is None:
        _TOKENIZER = llg.LLTokenizer(llg.TokenizerWrapper(_Bytes()), slices=[])
    grammar = llg.grammar_from("lark", lark)
    error = llg.LLMatcher.validate_grammar(grammar, _TOKENIZER)
    assert not error, f"llguidance refuses the grammar: {error}\n{lark}"

    def accepts(text: str) -> bool:
        matcher = llg.LLMatcher(_TOKENIZER, grammar)
        for byte in text.encode("utf-8"):
            if not matcher.consume_token(byte):
                return False
        return bool(matcher.is_accepting())

    return accepts


def gbnf_as_lark(gbnf: str) -> str:
    """llguidance's own GBNF reader (the one llama.cpp's %llguidance uses)."""
    try:
        from llguidance.gbnf_to_lark import gbnf_to_lark  # noqa: PLC0415
    except ImportError as e:
        _missing("llguidance", str(e))
    return gbnf_to_lark(gbnf)
