# toolsearch's image: its static binary alone, run as a user without
# privileges, serving Streamable HTTP on :8080. Docker and Podman build it
# as it is:
#
#   docker build -t toolsearch .
#   docker run -e TOOLSEARCH_TOKEN=… -p 8080:8080 -v "$PWD:/config:ro" toolsearch
#
# Beyond loopback toolsearch wants a bearer token (docs/http.md): without
# TOOLSEARCH_TOKEN (or --token-file) the server refuses to start and says so.
# /config is the working folder, where toolsearch.yaml, .mcp.json and
# skills/ are read from; state (approvals, logins, last known catalogs)
# goes under $HOME, a volume if it is to outlive the container.
#
# BINARY=source (the default) builds the binary from this checkout;
# BINARY=prebuilt takes it from the build context at
# $TARGETPLATFORM/toolsearch, where goreleaser's dockers_v2 puts the
# release's binaries. BASE_IMAGE=scratch makes an image with nothing else
# (no CA certificates: HTTPS upstreams fail), as .ci/run does where no
# image can be pulled.

ARG GO_IMAGE=docker.io/library/golang:1.26-bookworm
ARG BASE_IMAGE=gcr.io/distroless/static-debian12:nonroot
ARG BINARY=source

FROM ${GO_IMAGE} AS source
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=
RUN CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X main.version=${VERSION}" -o /out/toolsearch ./cmd/toolsearch

FROM scratch AS prebuilt
ARG TARGETPLATFORM
COPY ${TARGETPLATFORM}/toolsearch /out/toolsearch

FROM ${BINARY} AS binary

FROM ${BASE_IMAGE}
COPY --from=binary /out/toolsearch /usr/local/bin/toolsearch
# distroless's nonroot user; its home is where state goes.
USER 65532:65532
ENV HOME=/home/nonroot
WORKDIR /config
EXPOSE 8080
ENTRYPOINT ["/usr/local/bin/toolsearch"]
CMD ["serve", "--http", ":8080"]
# /readyz with the container's TOOLSEARCH_TOKEN; a server given --token-file
# instead needs a HEALTHCHECK that names the same file.
HEALTHCHECK --interval=30s --timeout=10s --start-period=30s --retries=3 \
  CMD ["/usr/local/bin/toolsearch", "healthcheck", "--http", ":8080"]
