package dev.degradation.manifest;

/**
 * The keys of the manifest format, in one place for the readers of its sections, the rules that
 * relate them and the validator's summary.
 */
final class ManifestKeys {

	static final String DEFAULTS = "defaults";

	static final String DEPENDENCIES = "dependencies";

	static final String TIERS = "tiers";

	static final String HEALTH_CHECK_INTERVAL_MS = "health_check_interval_ms";

	static final String FAILURE_THRESHOLD = "failure_threshold";

	static final String RECOVERY_THRESHOLD = "recovery_threshold";

	static final String HYSTERESIS_SECONDS = "hysteresis_seconds";

	static final String FAILED_DEPENDENCY_SHEDS = "failed_dependency_sheds";

	static final String HEALTH_URL = "health_url";

	static final String TIMEOUT_MS = "timeout_ms";

	static final String WINDOW_SECONDS = "window_seconds";

	static final String MIN_SAMPLES = "min_samples";

	static final String PRIORITY = "priority";

	static final String ROUTES = "routes";

	static final String PATH = "path";

	static final String METHOD = "method";

	static final String FALLBACK = "fallback";

	static final String STATIC_RESPONSE = "static_response";

	static final String STATUS = "status";

	static final String CONTENT_TYPE = "content_type";

	static final String HEADERS = "headers";

	static final String RETRY_AFTER_SECONDS = "retry_after_seconds";

	static final String MAX_STALE_SECONDS = "max_stale_seconds";

	static final String VARY_BY = "vary_by";

	static final String REQUIRES = "requires";

	static final String NAME = "name";

	static final String PRESSURE = "pressure";

	static final String METER = "meter";

	static final String TAGS = "tags";

	static final String SHED_ABOVE = "shed_above";

	static final String RESTORE_BELOW = "restore_below";

	static final String SHEDS = "sheds";

	static final String OVERLOAD = "overload";

	static final String CONCURRENCY_LIMIT = "concurrency_limit";

	static final String MAX_QUEUE_MS = "max_queue_ms";

	static final String REFUSAL_STATUS = "refusal_status";

	static final String HEALTH_INDICATOR = "health_indicator";

	static final String BASE_URL = "base_url";

	static final String CALL_TIMEOUT_MS = "call_timeout_ms";

	static final String BREAKER = "breaker";

	static final String FAILURE_RATE_THRESHOLD = "failure_rate_threshold";

	static final String SLOW_CALL_RATE_THRESHOLD = "slow_call_rate_threshold";

	static final String SLOW_CALL_DURATION_MS = "slow_call_duration_ms";

	static final String WINDOW_SIZE = "window_size";

	static final String MINIMUM_CALLS = "minimum_calls";

	static final String OPEN_MS = "open_ms";

	static final String HALF_OPEN_CALLS = "half_open_calls";

	static final String RETRY = "retry";

	static final String MAX_ATTEMPTS = "max_attempts";

	static final String BACKOFF_MS = "backoff_ms";

	static final String MAX_RETRY_AFTER_MS = "max_retry_after_ms";

	static final String BUDGET_MS = "budget_ms";

	static final String METHODS = "methods";

	private ManifestKeys() {
	}

}
