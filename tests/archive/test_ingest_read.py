"""The worker reads a document with msgspec, and leaves to the engine whatever msgspec does
not read exactly as the engine does (``ingest.read_document``)."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from fives_engine import check_document
from fives_engine.log import SchemaError, load_json
from fives_engine.simulate import simulate_match
from games.services.ingest import read_document


def json_texts():
    """JSON texts as a log's author might write them, and texts that are not quite JSON."""
    written = st.builds(
        lambda value, ascii_only, indent: json.dumps(value, ensure_ascii=ascii_only, indent=indent),
        st.recursive(
            st.none()
            | st.booleans()
            | st.integers()
            | st.integers(min_value=-(10**40), max_value=10**40)
            | st.floats()
            | st.text(max_size=8),
            lambda children: (
                st.lists(children, max_size=4)
                | st.dictionaries(st.text(max_size=8), children, max_size=4)
            ),
            max_leaves=30,
        ),
        st.booleans(),
        st.sampled_from([None, 1]),
    )
    edited = st.tuples(written, st.integers(min_value=0, max_value=40), st.text(max_size=3)).map(
        lambda parts: parts[0][: parts[1]] + parts[2] + parts[0][parts[1] :]
    )
    return (
        written
        | edited
        | written.map(lambda text: "\ufeff" + text)
        | written.map(lambda text: text.encode("utf-8", "surrogatepass"))
        | st.binary(max_size=40)
        | st.sampled_from(["1e400", '"\\ud800"', "[" * 5000 + "]" * 5000, "9" * 5000])
    )


def engine_read(text):
    """Return what the engine makes of ``text``: the JSON it gives back, types and all, or
    the schema error it raises."""
    try:
        return "value", json.dumps(load_json(text))
    except SchemaError as exc:
        return "error", exc.path, exc.problem, exc.params


@settings(max_examples=1000, deadline=None)
@given(json_texts())
def test_a_document_is_read_as_the_engine_reads_it_or_left_to_the_engine(text):
    doc = read_document(text)
    if doc is not text:
        assert type(doc) is dict
        assert ("value", json.dumps(doc)) == engine_read(text)
    # Either way, the engine's walk gives the report it gives the text.
    assert check_document(doc).report.as_dict() == check_document(text).report.as_dict()


def test_a_log_is_read_by_msgspec_and_anything_it_refuses_by_the_engine():
    text = json.dumps(simulate_match("muggins", 2, seed=1)).encode()
    assert read_document(text) == json.loads(text)
    for refused in (b"\xef\xbb\xbf" + text, b'{"points": NaN}', b'"a string"', b"[1]"):
        assert read_document(refused) is refused
