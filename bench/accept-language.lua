-- Every request asks for the language in BENCH_LANGUAGE, as a phone set to it does.
wrk.headers["Accept-Language"] = os.getenv("BENCH_LANGUAGE")
