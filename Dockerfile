# The asi-conformance CLI in an image, built from this checkout:
#   docker build -t asi-conformance .
#   docker run --rm -e ASI_TOKEN -v "$PWD:/work" --user "$(id -u):$(id -g)" \
#     asi-conformance run --config target.yaml --out reports
# It installs the package the way users do (npm pack, then npm install of the tarball), so the
# image runs exactly what is published. The working folder /work is where profiles are read and
# reports written: mount yours there.

# Stage 1: build and pack.
FROM node:20-slim AS pack
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN npm run build && mkdir /pack && npm pack --ignore-scripts --pack-destination /pack

# Stage 2: the tarball installed globally, nothing else.
FROM node:20-slim
COPY --from=pack /pack/ /tmp/pack/
RUN npm install --global --omit=dev --no-audit --no-fund /tmp/pack/asi-conformance-*.tgz \
 && rm -rf /tmp/pack /root/.npm
COPY docker/entrypoint.sh /usr/local/bin/asi-conformance-entrypoint
WORKDIR /work
RUN chown node:node /work
USER node
ENTRYPOINT ["asi-conformance-entrypoint"]
CMD ["--help"]
