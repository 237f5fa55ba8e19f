"""Answers with their ETag (the game's version), and ``304`` for a client that has the version already."""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify, request

from ..play.presenters import Reply


def reply(result: Reply) -> Response:
    if result.status == 204:
        return Response(status=204)
    response = jsonify(result.body)
    response.status_code = result.status
    response.set_etag(str(result.version))
    response.vary.add("Authorization")
    return response


def read_reply(body: dict[str, Any], version: int) -> Response:
    """A GET answer with its ETag; `304` when the client's If-None-Match already has this version."""
    if request.if_none_match.contains_weak(str(version)):
        response = Response(status=304)
        response.set_etag(str(version))
        return response
    return reply(Reply(200, body, version))
