# Production images (see docs/operations.md, "Docker" and "Fly.io + LiteFS").
#   docker build --target app -t prd-studio .   one container, non-root, data in /data
#   fly deploy                                   the last stage: the app under LiteFS
# Only the build output, the production dependencies and the PDF fonts reach
# the runtime stages; compilers and dev dependencies stay in `build`.

FROM node:24-bookworm-slim AS base
# chromium + DejaVu draw Mermaid diagrams in exports; sqlite3 is for operators.
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates sqlite3 chromium fonts-dejavu-core \
  && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production CHROMIUM_PATH=/usr/bin/chromium

FROM base AS build
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
# npm ci runs patch-package (postinstall), which needs the patches.
COPY scripts/patches ./scripts/patches
# better-sqlite3 12 aborts on Node 24 when compiled against >= 24.19's
# node_object_wrap.h (nodejs/node#65446): if its prebuilt binary cannot be
# downloaded, node-gyp builds it against 24.18.1's headers (same ABI).
RUN NODE_ENV=development npm_config_target=24.18.1 npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

# One container on its own: a non-root user, the data directory as the only state.
FROM base AS app
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json /app/package-lock.json ./
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/build ./build
COPY --from=build --chown=node:node /app/app/domain/exports/pdf/fonts ./app/domain/exports/pdf/fonts
RUN mkdir -p /data && chown node:node /data
ENV PORT=3000 HOST=0.0.0.0 DATA_DIR=/data
VOLUME /data
EXPOSE 3000
USER node
CMD ["node", "--max-semi-space-size=8", "--max-old-space-size=384", "build/server.js"]

# Fly.io: LiteFS mounts the replicated database with FUSE, which needs root,
# and starts the app itself (litefs.yml `exec`), so this stage runs as root.
FROM app AS litefs
USER root
RUN apt-get update && apt-get install -y --no-install-recommends fuse3 && rm -rf /var/lib/apt/lists/*
COPY --from=flyio/litefs:0.5 /usr/local/bin/litefs /usr/local/bin/litefs
COPY litefs.yml /etc/litefs.yml
ENV PORT=8081 INTERNAL_PORT=8080 LITEFS_DIR=/litefs DATA_DIR=/litefs
EXPOSE 8080
ENTRYPOINT ["litefs", "mount"]
