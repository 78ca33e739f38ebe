"""The HTTP API fuzzed from its own OpenAPI schema (schemathesis, in process): no input makes a server error.

Every operation gets valid and invalid requests (bodies, query strings, path parameters); each answer is
below 500, and every 4xx is JSON whose ``detail`` is a plain string (the page shows it as text). The
examples are derandomized and no example database is kept, so a CI run repeats the last one.

Time: 17 s for the module (20 s with pytest's start) on a shared 2-core machine, measured with
``pytest tests/test_server_fuzz_api.py``.
"""

from __future__ import annotations

import json
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

schemathesis = pytest.importorskip("schemathesis")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from schemathesis.checks import not_a_server_error  # noqa: E402

from brisca.server import create_app  # noqa: E402
from brisca.server.limits import Limits, Rate  # noqa: E402
from test_server_common import create, serve  # noqa: E402

#: Examples per operation and generation mode (valid, invalid): 13 operations.
EXAMPLES = 150

# The schema of an app that is never started (making it opens no database).
schema = schemathesis.openapi.from_dict(create_app("sqlite://").openapi())
schema.config.generation.update(
    modes=[schemathesis.GenerationMode.POSITIVE, schemathesis.GenerationMode.NEGATIVE],
    max_examples=EXAMPLES, deterministic=True, database="none",
)


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    db = tmp_path_factory.mktemp("fuzz") / "db.sqlite3"
    # Each example may open a table: the caps on open tables (tested in test_server_limits.py) lifted, so the
    # requests reach the code behind them rather than a 409.
    lifted = Rate(10**6, 10**6)
    limits = Limits(min_bot_delay=0, max_open_tables=10**6, max_open_tables_account=10**6, max_bot_tables=10**6,
                    max_bot_tables_total=10**6, rate_create=lifted, rate_join=lifted, rate_login=lifted)
    with serve(str(db), limits=limits) as client:
        create(client, players=2)  # something to list
        yield client


def _send(client: Any, case: Any) -> Any:
    """The case's request through the app's own test client (its database and actors are live)."""
    kwargs = case.as_transport_kwargs(base_url="http://testserver")
    content = kwargs.get("data")
    if "json" in kwargs:
        content = json.dumps(kwargs["json"]).encode()  # NaN and huge numbers included, as an attacker sends them
    if isinstance(content, str):
        content = content.encode("utf-8", "surrogatepass")
    return client.request(kwargs["method"], kwargs["url"], params=kwargs.get("params"),
                          headers=kwargs.get("headers"), content=content)


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
def test_no_request_makes_a_server_error(case: Any, api: Any) -> None:
    response = _send(api, case)
    case.validate_response(response, checks=[not_a_server_error])
    assert response.status_code < 500, (case.as_curl_command(), response.text)
    if response.status_code >= 400:
        body = response.json()
        assert isinstance(body, dict) and isinstance(body.get("detail"), str), response.text
        assert body["detail"] and len(body["detail"]) < 1000


def _check_answer(response: Any) -> None:
    assert response.status_code < 500, response.text
    if response.status_code >= 400:
        body = response.json()
        assert isinstance(body, dict) and isinstance(body.get("detail"), str), response.text
        assert "NaN" not in body["detail"] and "Infinity" not in body["detail"]


# What an attacker sends, beyond what the schema describes: NaN, infinities, numbers past 64 bits, deep
# nesting, control and bidi characters, and the odd shapes the rule options' parsers might not expect.
_hostile_scalar = st.one_of(
    st.none(), st.booleans(),
    st.integers(), st.sampled_from([2**63, 2**64, -(2**63) - 1, 10**40, -(10**40), 10**300]),
    st.floats(), st.sampled_from([float("nan"), float("inf"), -float("inf"), 1e308, 5e-324]),
    st.text(max_size=12),
    st.sampled_from(["\x00", "Ana\u202e", "\u200d", "\ud800", "é" * 70, "1" * 30, "easy", "²", "-0"]),
)
_hostile = st.recursive(
    _hostile_scalar,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=10,
)
_OPTION_NAMES = ["deck", "teams", "rank_order", "points", "exchange_with", "target_hands", "hand_size", "follow",
                 "bidding", "talon", "min_bid", "max_bid", "signals", "deal", "trump_from", "nosuch"]
_table_body = st.fixed_dictionaries({}, optional={
    "preset": _hostile | st.sampled_from(["spanish", "briscola", "chilean", "brisca"]),
    "players": _hostile | st.integers(1, 8),
    "options": _hostile | st.dictionaries(st.sampled_from(_OPTION_NAMES), _hostile, max_size=3),
    "bots": _hostile | st.dictionaries(st.integers(-2, 9).map(str) | st.text(max_size=3),
                                       _hostile | st.sampled_from(["easy", "normal"]), max_size=3),
    "bot_delay": _hostile, "seed": _hostile, "name": _hostile,
})
_join_body = st.fixed_dictionaries({}, optional={"name": _hostile, "seat": _hostile})
_query_value = _hostile_scalar.map(lambda v: json.dumps(v) if not isinstance(v, str) else v)


@settings(max_examples=300, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
@given(body=_table_body | _hostile)
def test_hostile_table_bodies_never_make_a_server_error(api: Any, body: Any) -> None:
    response = api.post("/api/tables", content=json.dumps(body).encode(), headers={"content-type": "application/json"})
    _check_answer(response)


@settings(max_examples=150, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
@given(body=_join_body | _hostile, raw=st.binary(max_size=40))
def test_hostile_joins_and_raw_bodies_never_make_a_server_error(api: Any, body: Any, raw: bytes) -> None:
    api.cookies.clear()  # a guest's requests (the schema's fuzzing may have signed up, and logged the client in)
    table_id = create(api, players=6)  # a fresh table: the join may take a seat
    response = api.post(f"/api/tables/{table_id}/join", content=json.dumps(body).encode(),
                        headers={"content-type": "application/json"})
    _check_answer(response)
    _check_answer(api.post("/api/tables", content=raw, headers={"content-type": "application/json"}))


@settings(max_examples=200, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
@given(path=st.sampled_from(["/api/games", "/api/lobby", "/api/ratings/spanish", "/api/ratings"]),
       params=st.dictionaries(st.sampled_from(["limit", "offset", "preset"]), _query_value, max_size=3),
       segment=st.text(max_size=20) | st.sampled_from(["%00", "%ED%A0%80", "..", "%2F", "x" * 300]))
def test_hostile_query_strings_and_paths_never_make_a_server_error(api: Any, path: str, params: dict[str, str],
                                                                  segment: str) -> None:
    # Encoded here, lone surrogates included (as %ED%A0%80): what arrives is bytes that are not UTF-8.
    query = urllib.parse.urlencode({k: v.encode("utf-8", "surrogatepass") for k, v in params.items()})
    _check_answer(api.get(f"{path}?{query}"))
    quoted = segment if "%" in segment else urllib.parse.quote(segment.encode("utf-8", "surrogatepass"), safe="")
    for template in ("/api/ratings/{}", "/api/games/{}", "/api/games/{}/replay", "/api/games/{}/record",
                     "/api/tables/{}"):
        _check_answer(api.get(template.format(quoted)))


def test_the_schema_bounds_what_it_takes() -> None:
    """The bounds the fuzzer works within are in the schema, where clients can read them."""
    spec = create_app("sqlite://").openapi()
    table = spec["components"]["schemas"]["CreateTable"]["properties"]
    assert table["players"]["maximum"] == 8 and table["players"]["minimum"] == 1
    seed = next(s for s in table["seed"]["anyOf"] if s.get("type") == "integer")
    assert seed["minimum"] == 0 and 2**62 < seed["maximum"] <= 2**63
    params = {p["name"]: p for p in spec["paths"]["/api/games"]["get"]["parameters"]}
    assert params["offset"]["schema"]["maximum"] == 10**6


def test_a_wrong_key_is_named_as_a_key_not_echoed(api: Any) -> None:
    response = api.post("/api/tables", json={"players": 2, "bots": {"NaN": "easy", "Infinity": "easy"}})
    assert response.status_code == 422
    assert response.json()["detail"] == "bots.<key>.[key]: Input should be a valid integer, unable to parse string " \
        "as an integer"
    _check_answer(response)


def test_the_page_reads_detail_as_text() -> None:
    app_js = (Path(__file__).parents[1] / "src/brisca/server/static/app.js").read_text()
    assert 'typeof data.detail === "string"' in app_js


#: Origin headers that are no URL (``http://[`` made a 500 with a traceback on every POST), and ones of other sites.
_ORIGINS = ["http://[", "http://[::1", "http://[::1]x:80", "https://[zz]", "http://]", "null", "", " ", "://",
            "http://testserver:99999", "http://evil.example", "file://", "http://testserver@evil.example"]
_POSTS = ["/api/tables", "/api/signup", "/api/login", "/api/logout", "/api/password"]


@pytest.mark.parametrize("origin", _ORIGINS)
def test_a_malformed_or_foreign_origin_is_a_403_not_a_500(api: Any, origin: str) -> None:
    for path in _POSTS:
        response = api.post(path, json={"players": 2, "username": "ana", "password": "x" * 9, "old": "x" * 9,
                                        "new": "y" * 9},
                            headers={"Origin": origin})
        _check_answer(response)
        assert response.status_code == 403, (path, origin, response.text)
        assert response.json()["detail"] == "cross-site request refused (its Origin is not this site)"


@settings(max_examples=200, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
@given(origin=st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=30)
       | st.sampled_from(_ORIGINS).map(lambda o: o + "/x?#["))
def test_hostile_origins_never_make_a_server_error(api: Any, origin: str) -> None:
    _check_answer(api.post("/api/logout", headers={"Origin": origin}))
