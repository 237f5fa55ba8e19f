"""Answers with their ETag (the game's version and the nonce of the write that made it: ``GameRecord.tag``), and
``304`` for a client that has that very version already."""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify, request

from ..play.presenters import Reply


def reply(result: Reply) -> Response:
    if result.status == 204:
        return Response(status=204)
    response = jsonify(result.body)
    response.status_code = result.status
    response.set_etag(result.tag)
    response.vary.add("Authorization")
    return response


def read_reply(body: dict[str, Any], tag: str) -> Response:
    """A GET answer with its ETag; `304` when the client's If-None-Match already has this tag (a version alone, or
    one that a Redis crash or failover lost and that was written again with other content, is not)."""
    if request.if_none_match.contains_weak(tag):
        response = Response(status=304)
        response.set_etag(tag)
        return response
    return reply(Reply(200, body, tag))
