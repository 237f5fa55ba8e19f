"""``python -m service.openapi > openapi/openapi.json``: print the generated OpenAPI document."""

from __future__ import annotations

import json

from . import create_app


def spec_text() -> str:
    app = create_app({"REDIS_URL": None})
    with app.test_client() as client:
        spec = client.get("/v1/openapi.json").get_json()
    return json.dumps(spec, indent=2, sort_keys=True) + "\n"


if __name__ == "__main__":
    print(spec_text(), end="")
