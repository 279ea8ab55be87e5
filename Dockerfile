# split-sandbox as a container image: built with compilers, run without them, as a non-root user.
#   docker build -t split-sandbox .
#   docker run --rm -p 8080:8080 -p 8081:8081 -e SANDBOX_PUBLIC_URL=http://localhost:8080 split-sandbox

FROM debian:trixie-slim AS build
# Behind a TLS-intercepting proxy, its CA bundle (npm's registry and better-sqlite3's binary are
# fetched here). Empty by default; never set in the final image.
ARG NODE_EXTRA_CA_CERTS
RUN apt-get update \
 && apt-get install -y --no-install-recommends nodejs npm python3 make g++ ca-certificates \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# Dependencies first, so that a change to the sources reuses this layer.
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
# better-sqlite3's native driver (a prebuilt binary, else compiled), then dist/ as `npm run build` makes it.
RUN npm rebuild better-sqlite3 \
 && npm run build \
 && npm prune --omit=dev --no-audit --no-fund \
 && find dist -name '*.map' -delete \
 && cd node_modules/better-sqlite3 \
 && find build -mindepth 1 -maxdepth 1 ! -name Release -exec rm -rf {} + \
 && find build/Release -mindepth 1 ! -name better_sqlite3.node -exec rm -rf {} + \
 && rm -rf deps src
RUN mkdir /out && cp -r package.json LICENSE README.md bin dist fixtures scenarios node_modules /out/

FROM debian:trixie-slim
# ca-certificates: notifications to https:// URLs.
RUN apt-get update \
 && apt-get install -y --no-install-recommends nodejs ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --gid 10001 sandbox \
 && useradd --uid 10001 --gid 10001 --home-dir /data --no-create-home --shell /usr/sbin/nologin sandbox \
 && mkdir /data && chown sandbox:sandbox /data
COPY --from=build /out /app
ENV PATH=/app/bin:$PATH \
    NODE_ENV=production \
    SANDBOX_HOST=0.0.0.0 \
    SANDBOX_PORT=8080 \
    SANDBOX_CARD_PORT=8081 \
    SANDBOX_DB=/data/split-sandbox.db
VOLUME /data
WORKDIR /data
EXPOSE 8080 8081
USER sandbox
# `split-sandbox wait` is one node start, about 0.2 s of CPU: every 10 s here; a CI service that
# wants to be ready sooner asks for a shorter interval (--health-interval 2s).
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
  CMD split-sandbox wait --base-url "http://127.0.0.1:${SANDBOX_PORT}" --timeout 3s
# Node itself is PID 1 (exec form): SIGTERM reaches it and it stops cleanly at once.
ENTRYPOINT ["split-sandbox"]
CMD ["start"]
