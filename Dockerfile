# Card Table, the game service: gunicorn (gevent workers) over Redis at $REDIS_URL.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 PORT=8000
WORKDIR /app

COPY pyproject.toml README.md LICENSE ./
COPY thegame_core ./thegame_core
COPY service ./service
# service/web/rules links to docs/rules (the rules' one source): the wheel built below takes the files themselves
COPY docs/rules ./docs/rules
RUN pip install '.[service]' && useradd --create-home --uid 10001 thegame

USER thegame
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=3s --start-period=5s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/v1/health/live' % os.environ.get('PORT', '8000'), timeout=2)"]
# The web service. With REDIS_URL, run the job queue's workers as a second service of the same image (no port):
# CMD ["python", "-m", "service", "worker"] (docs/api.md, "Run it").
CMD ["gunicorn", "--config", "python:service.gunicorn_conf", "service:create_app()"]
