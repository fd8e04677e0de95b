# One image for every Arbiter process: the API, the recorder, the scheduler
# (they hold DATABASE_URL) and the match workers (they must not). The command
# picks the part (bin/server.js <part>: api, recorder, scheduler or worker; none for all); see docker-compose.yml.

# isolated-vm compiles a native addon: the full image has python3, make and g++.
FROM node:22-bookworm AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY prisma ./prisma
COPY scripts ./scripts
# postinstall generates the Prisma client into src/db/generated.
RUN npm ci
COPY . .
# The built judge (dist/) every process runs: bin/server.js checks it is newer than the sources.
RUN node scripts/build.js

FROM node:22-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/app/data
COPY --from=build /app /app
# A system clang for wasm32 compiles C++ players in a second or two (the npm
# toolchain, @yowasp/clang, works without it and takes about 5x the CPU). It is
# used only confined (src/sandbox/languages/cpp/confine.ts), under the
# runtime's default seccomp and AppArmor profiles, nothing added: those refuse
# the user and mount namespaces of a single host, so in a container the judge
# confines clang with Landlock (Linux 5.13+; the default profiles of Docker
# 23+, containerd and Podman allow its three calls): clang may open the
# toolchain, its own work directory and the game's precompiled header, nothing
# else. Its helper (landlock/arbiter-landlock.c) is built with this clang at
# the first compile (hence libc6-dev, a dependency of clang). A host kernel
# without Landlock: the judge logs "the system clang cannot be confined" and
# compiles with the npm toolchain. See docs/operations.md, "C++ compiles in
# containers".
RUN apt-get update && apt-get install -y --no-install-recommends clang lld wasi-libc libc++-dev-wasm32 libclang-rt-dev-wasm32 util-linux mount \
    && rm -rf /var/lib/apt/lists/*
RUN mkdir -p /app/data && chown -R node:node /app/data
USER node
EXPOSE 3000
# Everything in one container (embedded defaults) unless the command says otherwise.
CMD ["node", "--no-node-snapshot", "bin/server.js"]
