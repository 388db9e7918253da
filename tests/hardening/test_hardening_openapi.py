"""The HTTP API against its own OpenAPI document (issue #7, item 3), with schemathesis.

Schemathesis generates requests from ``/openapi.json`` for every operation; each is
sent in process to the running app (lifespan entered, its own SQLite file) and the
response is validated: no 5xx, a documented status code, a body that matches the
documented schema, the documented content type and headers.

One check is left out: ``positive_data_acceptance`` (a schema-valid request must be
accepted). The API's bodies have rules a JSON Schema cannot say -- the player counts
of each game, its rule options, its bot levels -- so a schema-valid table can still be
refused with a documented ``400`` and a reason.
"""

from __future__ import annotations

import warnings

import pytest

warnings.filterwarnings("ignore", message=".*httpx2.*")

import schemathesis  # noqa: E402
from schemathesis.specs.openapi.checks import positive_data_acceptance  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from parlour.server import Settings, create_app  # noqa: E402

pytestmark = [pytest.mark.timeout(300), pytest.mark.filterwarnings("ignore::DeprecationWarning")]

schema = schemathesis.openapi.from_dict(
    create_app(Settings(db_url="sqlite:///:memory:")).openapi())


@pytest.fixture(scope="module")
def api(tmp_path_factory):
    app = create_app(Settings(db_url=f"sqlite:///{tmp_path_factory.mktemp('api')}/api.sqlite3",
                              allowed_hosts=["testserver"], create_burst=10_000, bot_workers=0))
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


@schema.parametrize()
def test_api_conforms_to_its_openapi_document(case, api):
    response = api.request(**case.as_transport_kwargs(base_url="http://testserver"))
    assert response.status_code < 500, response.text
    case.validate_response(response, excluded_checks=[positive_data_acceptance])
