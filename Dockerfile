# One image for every Arbiter process: the API, the recorder, the scheduler
# (they hold DATABASE_URL) and the match workers (they must not). The command
# picks the part; see docker-compose.yml.

# isolated-vm compiles a native addon: the full image has python3, make and g++.
FROM node:22-bookworm AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY prisma ./prisma
COPY scripts ./scripts
# postinstall generates the Prisma client into src/db/generated.
RUN npm ci
COPY . .

FROM node:22-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/app/data
COPY --from=build /app /app
# A system clang for wasm32 compiles C++ players in about a second (the npm
# toolchain, @yowasp/clang, works without it but takes many seconds).
RUN apt-get update && apt-get install -y --no-install-recommends clang lld wasi-libc libc++-dev-wasm32 libclang-rt-dev-wasm32 \
    && rm -rf /var/lib/apt/lists/*
RUN mkdir -p /app/data && chown -R node:node /app/data
USER node
EXPOSE 3000
# Everything in one container (embedded defaults) unless the command says otherwise.
CMD ["node", "--no-node-snapshot", "--import", "tsx", "src/main.ts"]
