# parlour serve in a container: slim, non-root, the page's static files and the bots'
# weights inside (package data of the wheel), healthy when /readyz answers 200.
# docs/deploy.md, "Containers"; docker-compose.yml runs two of these behind nginx.
FROM python:3.11-slim-bookworm AS build
WORKDIR /src
COPY pyproject.toml README.md ./
COPY src ./src
RUN python -m venv /opt/parlour \
    && /opt/parlour/bin/pip install --no-cache-dir ".[postgres]"

FROM python:3.11-slim-bookworm
RUN useradd --system --uid 10001 --home-dir /var/lib/parlour --create-home parlour
COPY --from=build /opt/parlour /opt/parlour
COPY deploy/entrypoint.sh /usr/local/bin/parlour-entrypoint
COPY deploy/healthcheck.py /usr/local/lib/parlour-healthcheck.py
ENV PATH=/opt/parlour/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PARLOUR_HOST=0.0.0.0 \
    PARLOUR_PORT=8000 \
    PARLOUR_DB=/var/lib/parlour/tables.sqlite3
# Compile the bots' search kernels into numba's cache now (as root, beside the package),
# not on the first hard move.
RUN python -c "from parlour.server.work import warm; warm()"
USER parlour
WORKDIR /var/lib/parlour
VOLUME ["/var/lib/parlour"]
EXPOSE 8000
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "/usr/local/lib/parlour-healthcheck.py"]
ENTRYPOINT ["/usr/local/bin/parlour-entrypoint"]
CMD []
