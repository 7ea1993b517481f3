# syntax=docker/dockerfile:1
# One image for every role (command-api, projections, workers): pick one with the
# service's command (see docker-compose.yml). Build: docker build -t fsm-tickets .
ARG NODE_IMAGE=node:22-bookworm-slim

# ---- build: every workspace, dev dependencies included -------------------------
FROM ${NODE_IMAGE} AS build
WORKDIR /app
# The project pins npm 11 (package.json "allowScripts"); the Node image ships npm 10.
RUN npm install -g npm@11 --no-audit --no-fund
# Manifests first, so the dependency layer is cached until one of them changes.
COPY package.json package-lock.json ./
COPY contracts/package.json contracts/
COPY eventstore/package.json eventstore/
COPY projections/package.json projections/
COPY command-api/package.json command-api/
COPY workers/package.json workers/
COPY web/package.json web/
COPY launcher/package.json launcher/
RUN npm ci --no-audit --no-fund
COPY tsconfig.base.json tsconfig.json ./
COPY contracts contracts
COPY eventstore eventstore
COPY projections projections
COPY command-api command-api
COPY workers workers
COPY web web
COPY launcher launcher
RUN npm run build

# ---- runtime: production dependencies of the server roles, the built output ----
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    DATA_DIR=/data \
    WEB_ROOT=/app/web/dist \
    PORT=3000 \
    HOST=0.0.0.0
WORKDIR /app
RUN npm install -g npm@11 --no-audit --no-fund
COPY package.json package-lock.json ./
COPY contracts/package.json contracts/
COPY eventstore/package.json eventstore/
COPY projections/package.json projections/
COPY command-api/package.json command-api/
COPY workers/package.json workers/
COPY web/package.json web/
COPY launcher/package.json launcher/
# Only the server workspaces: the UI ships as static files, the launcher (embedded
# Postgres, one-machine mode) is not used in a deployment.
RUN npm ci --omit=dev --no-audit --no-fund \
      -w contracts -w eventstore -w projections -w command-api -w workers \
    && npm cache clean --force
COPY --from=build /app/contracts/dist contracts/dist
COPY --from=build /app/eventstore/dist eventstore/dist
COPY --from=build /app/projections/dist projections/dist
COPY --from=build /app/command-api/dist command-api/dist
COPY --from=build /app/workers/dist workers/dist
COPY --from=build /app/web/dist web/dist
COPY scripts/docker-healthcheck.mjs scripts/docker-healthcheck.mjs
# Non-root: the image's `node` user (uid 1000) owns only the data volume.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 CMD ["node", "scripts/docker-healthcheck.mjs", "command-api"]
CMD ["node", "command-api/dist/main.js"]
