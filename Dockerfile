# syntax=docker/dockerfile:1
# One image for the API and the worker (docker-compose.yml picks the command).

FROM node:20-slim AS build
WORKDIR /app
# The image talks to a real Temporal cluster; the dev-server CLI (a Go build) is not needed.
ENV INTENT_LEADS_SKIP_TEMPORAL_INSTALL=1
COPY package.json package-lock.json ./
COPY scripts/install-temporal.js scripts/install-temporal.js
RUN npm ci
COPY tsconfig.json tsconfig.build.json ./
COPY src src
COPY api api
COPY worker worker
COPY workflows workflows
COPY activities activities
COPY infra infra
COPY scripts scripts
# Compiles, then bundles the workflows into dist/workflow-bundle.js, which the worker loads, and
# names the build in dist/build-info.json (no .git here: pass --build-arg BUILD_ID=<version-commit>).
ARG BUILD_ID
RUN npm run build
RUN npm prune --omit=dev

FROM node:20-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/dist dist
USER node
EXPOSE 3000
CMD ["node", "dist/api/main.js"]
