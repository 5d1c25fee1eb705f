# Production image for Fly.io + LiteFS (see docs/operations.md).
FROM node:20-bookworm-slim AS base
RUN apt-get update && apt-get install -y --no-install-recommends fuse3 ca-certificates sqlite3 chromium fonts-dejavu-core && rm -rf /var/lib/apt/lists/*

FROM base AS build
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
# npm ci runs patch-package (postinstall), which needs the patches.
COPY scripts/patches ./scripts/patches
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM base
COPY --from=flyio/litefs:0.5 /usr/local/bin/litefs /usr/local/bin/litefs
WORKDIR /app
COPY --from=build /app /app
COPY litefs.yml /etc/litefs.yml
ENV NODE_ENV=production
ENTRYPOINT ["litefs", "mount"]
