"""Reading requests and replying: the bearer token, strict JSON bodies, headers, the error body, ETags."""
