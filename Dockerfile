# One image for all six services and platformctl; the container's command picks the executable.
# Build: docker build -t mobile-backend-platform .
FROM swift:6.1-bookworm AS build
WORKDIR /src
COPY scripts/ scripts/
# librdkafka >= 2.8 from Debian trixie's source package (bookworm's 2.0.2 cannot talk to Tansu).
RUN bash scripts/install-deps.sh --librdkafka-only
COPY Package.swift ./
COPY Shared/ Shared/
COPY Services/ Services/
COPY Tools/ Tools/
COPY Benchmarks/ Benchmarks/
COPY Tests/ Tests/
RUN swift build -c release --static-swift-stdlib \
    && mkdir /out \
    && for p in weather-fetcher warning-detector places-importer auth analytics-aggregator appointment-booker platformctl; do \
         cp ".build/release/$p" /out/; done

FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates liblz4-1 libsasl2-2 libssl3 libzstd1 \
      zlib1g libcurl4 curl && rm -rf /var/lib/apt/lists/*
COPY --from=build /usr/local/lib/librdkafka.so* /usr/local/lib/
RUN ldconfig
COPY --from=build /out/ /usr/local/bin/
USER nobody
ENV HTTP_HOST=0.0.0.0
EXPOSE 8080
