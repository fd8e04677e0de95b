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
# A system clang for wasm32 compiles C++ players in a few seconds (the npm
# toolchain, @yowasp/clang, works without it but takes many seconds). It is
# used only confined (src/sandbox/languages/cpp/confine.ts): util-linux's unshare and mount
# make it a root of its own in new user, mount and network namespaces. The
# container must allow that, or the judge logs "the system clang cannot be
# confined" and compiles with the npm toolchain: Docker's default seccomp
# profile refuses unshare and mount and its AppArmor profile refuses mount, so
# run the judging containers with
#   security_opt: [seccomp=unconfined, apparmor=unconfined]
# (or a seccomp profile that allows unshare, mount, umount2 and chroot), on a
# host that allows unprivileged user namespaces (Ubuntu 24.04:
# sysctl kernel.apparmor_restrict_unprivileged_userns=0).
RUN apt-get update && apt-get install -y --no-install-recommends clang lld wasi-libc libc++-dev-wasm32 libclang-rt-dev-wasm32 util-linux mount \
    && rm -rf /var/lib/apt/lists/*
RUN mkdir -p /app/data && chown -R node:node /app/data
USER node
EXPOSE 3000
# Everything in one container (embedded defaults) unless the command says otherwise.
CMD ["node", "--no-node-snapshot", "bin/server.js"]
