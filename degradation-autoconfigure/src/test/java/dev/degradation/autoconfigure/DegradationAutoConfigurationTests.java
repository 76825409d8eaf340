package dev.degradation.autoconfigure;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.support.PropertiesLoaderUtils;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

import dev.degradation.actuate.DegradationEndpoint;
import dev.degradation.actuate.DegradationEndpointWebExtension;
import dev.degradation.actuate.DegradationHealthIndicator;
import dev.degradation.actuate.DegradationMeterBinder;
import dev.degradation.actuate.EndpointWriteWebFilter;
import dev.degradation.actuate.HealthIndicatorProbe;
import dev.degradation.engine.DegradationEngine;
import dev.degradation.engine.ShedDemand;
import dev.degradation.engine.ShedSignal;
import dev.degradation.event.DegradationChangeReporter;
import dev.degradation.event.DegradationLevelChangedEvent;
import dev.degradation.handler.ManifestVerification;
import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.Dependency;
import dev.degradation.manifest.InvalidManifestException;
import dev.degradation.manifest.ManifestLoader;
import dev.degradation.monitor.HealthProbe;
import dev.degradation.monitor.DependencyHealthSource;
import dev.degradation.monitor.HealthSources;
import dev.degradation.monitor.ProbeResult;
import dev.degradation.engine.OverloadSignal;
import dev.degradation.overload.PassedPriority;
import dev.degradation.overload.RequestPriority;
import dev.degradation.reload.ManifestReloader;
import dev.degradation.web.RequestDecider;
import dev.degradation.web.servlet.DegradationFilter;
import dev.degradation.web.RouteTable;
import dev.degradation.web.reactive.DegradationWebFilter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Every condition of the degradation auto-configurations.
 */
@ExtendWith(OutputCaptureExtension.class)
class DegradationAutoConfigurationTests {

	private static final String SHOP = "degradation.manifest=classpath:manifests/shop.yaml";

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DegradationAutoConfiguration.class,
				DegradationServletAutoConfiguration.class, DegradationReactiveAutoConfiguration.class,
				DegradationEndpointAutoConfiguration.class, DegradationMetricsAutoConfiguration.class))
		.withPropertyValues("management.endpoints.web.exposure.include=degradation");

	@Test
	void whenAManifestIsPresentEveryBeanIsCreated() {
		this.runner.withPropertyValues(SHOP).run((context) -> {
			assertThat(context).hasSingleBean(DegradationManifest.class)
				.hasSingleBean(DegradationEngine.class)
				.hasSingleBean(RouteTable.class)
				.hasSingleBean(DegradationChangeReporter.class)
				.hasSingleBean(DegradationEndpoint.class)
				.hasSingleBean(DegradationEndpointWebExtension.class)
				.hasSingleBean(DegradationMeterBinder.class)
				.hasBean("degradationFilter");
			assertThat(context.getBean(DegradationManifest.class).tiers()).hasSize(2);
		});
	}

	@Test
	void whenNoManifestIsAtTheDefaultLocationTheStarterBacksOffAndSaysSoOnce(CapturedOutput output) {
		this.runner.run((context) -> {
			assertThat(context).hasNotFailed()
				.doesNotHaveBean(DegradationManifest.class)
				.doesNotHaveBean(DegradationEngine.class)
				.doesNotHaveBean("degradationFilter")
				.doesNotHaveBean(DegradationEndpoint.class)
				.doesNotHaveBean(DegradationMeterBinder.class);
			String line = "No degradation manifest at 'optional:classpath:degradation-manifest.yaml': "
					+ "graceful degradation is inactive";
			assertThat(output.getOut()).containsOnlyOnce(line);
			assertThat(output.getOut().lines().filter((l) -> l.contains(line))).allMatch((l) -> l.contains("INFO"));
		});
	}

	@Test
	void whenAnOptionalConfiguredLocationIsMissingTheStarterBacksOff() {
		this.runner.withPropertyValues("degradation.manifest=optional:classpath:manifests/absent.yaml")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(DegradationEngine.class));
	}

	@Test
	void whenAConfiguredLocationIsMissingStartupFails() {
		this.runner.withPropertyValues("degradation.manifest=classpath:manifests/absent.yaml").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(ManifestNotFoundException.class)
				.hasMessageContaining("classpath:manifests/absent.yaml");
			FailureAnalysis analysis = new ManifestNotFoundFailureAnalyzer().analyze(context.getStartupFailure());
			assertThat(analysis.getDescription()).contains("'classpath:manifests/absent.yaml'");
			assertThat(analysis.getAction()).contains("optional:");
		});
	}

	@Test
	void whenTheManifestIsInvalidStartupFailsWithEveryProblemInTheReport() {
		this.runner.withPropertyValues("degradation.manifest=classpath:manifests/broken.yaml").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause().isInstanceOf(InvalidManifestException.class);
			FailureAnalysis analysis = new InvalidManifestFailureAnalyzer().analyze(context.getStartupFailure());
			assertThat(analysis.getDescription()).contains("has 4 problems")
				.contains("classpath:manifests/broken.yaml:2:3: defaults.failure_treshold: unknown key 'failure_treshold'; "
						+ "did you mean 'failure_threshold'?")
				.contains("classpath:manifests/broken.yaml:5:17: dependencies.recommendations-api.health_url:")
				.contains("classpath:manifests/broken.yaml:10:9: tiers.enhanced.routes[0].static_response:")
				.contains("classpath:manifests/broken.yaml:13:20: tiers.enhanced.routes[0].requires[0]: "
						+ "'recomendations-api' is not a declared dependency");
			assertThat(analysis.getAction()).contains("manifests/broken.yaml").contains("degradation.enabled=false");
		});
	}

	@Test
	void placeholdersInTheManifestAreResolvedFromTheEnvironment() {
		this.runner
			.withPropertyValues("degradation.manifest=classpath:manifests/placeholders.yaml",
					"recommendations.url=http://127.0.0.1:7001", "recommendations.timeout=750")
			.run((context) -> {
				DegradationManifest manifest = context.getBean(DegradationManifest.class);
				assertThat(manifest.dependencies().get(0).healthUrl())
					.hasToString("http://127.0.0.1:7001/healthz");
				assertThat(manifest.dependencies().get(0).healthCheck().timeout().toMillis()).isEqualTo(750);
			});
	}

	@Test
	void anUnresolvablePlaceholderIsAManifestProblem() {
		this.runner.withPropertyValues("degradation.manifest=classpath:manifests/placeholders.yaml")
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidManifestException.class)
				.hasMessageContaining("dependencies.recommendations-api.health_url")
				.hasMessageContaining("recommendations.url"));
	}

	@Test
	void placeholdersThatExpandPastTheirBoundsFailStartupAtTheirPosition() {
		String[] properties = new String[42];
		properties[0] = "degradation.manifest=classpath:manifests/placeholders.yaml";
		properties[1] = "bomb0=xxxxxxxxxx";
		for (int i = 1; i <= 40; i++) {
			properties[i + 1] = "bomb" + i + "=${bomb" + (i - 1) + "}${bomb" + (i - 1) + "}";
		}
		this.runner.withPropertyValues(properties)
			.withPropertyValues("recommendations.url=http://${bomb40}", "recommendations.timeout=750")
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidManifestException.class)
				.hasMessageContaining("dependencies.recommendations-api.health_url")
				.hasMessageContaining("cannot resolve the placeholders of '${recommendations.url}/healthz'"));
	}

	@Test
	void theManifestIsReadOnceAtStartup() {
		java.util.concurrent.atomic.AtomicInteger reads = new java.util.concurrent.atomic.AtomicInteger();
		org.springframework.core.io.DefaultResourceLoader counting = new org.springframework.core.io.DefaultResourceLoader() {

			@Override
			public org.springframework.core.io.Resource getResource(String location) {
				org.springframework.core.io.Resource resource = super.getResource(location);
				if (!location.endsWith("manifests/shop.yaml")) {
					return resource;
				}
				return new org.springframework.core.io.ClassPathResource("manifests/shop.yaml") {

					@Override
					public java.io.InputStream getInputStream() throws java.io.IOException {
						reads.incrementAndGet();
						return super.getInputStream();
					}

				};
			}

		};
		this.runner.withPropertyValues(SHOP)
			.withInitializer((context) -> ((org.springframework.context.support.GenericApplicationContext) context)
				.setResourceLoader(counting))
			.run((context) -> {
				assertThat(context).hasSingleBean(DegradationManifest.class).hasSingleBean(ManifestReloader.class);
				assertThat(reads).hasValue(1);
			});
	}

	@Test
	void requestSimulationWithoutALongEnoughTokenFailsStartupAndNamesTheProperty() {
		this.runner.withPropertyValues(SHOP, "degradation.simulation.requests.enabled=true")
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("'degradation.simulation.requests.token' must be set"));
		this.runner
			.withPropertyValues(SHOP, "degradation.simulation.requests.enabled=true",
					"degradation.simulation.requests.token=short")
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("must be at least 16 characters, but has 5"));
		this.runner
			.withPropertyValues(SHOP, "degradation.simulation.requests.enabled=true",
					"degradation.simulation.requests.token=a-token-of-at-least-16-characters")
			.run((context) -> assertThat(context.getBean(RequestDecider.class).simulatesRequests()).isTrue());
		this.runner.withPropertyValues(SHOP, "degradation.simulation.requests.token=a-token-of-at-least-16-characters")
			.run((context) -> assertThat(context.getBean(RequestDecider.class).simulatesRequests()).isFalse());
	}

	@Test
	void aRouteUnderTheActuatorBasePathIsRejected() {
		this.runner.withPropertyValues("degradation.manifest=classpath:manifests/under-actuator.yaml",
				"management.endpoints.web.base-path=/manage")
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidManifestException.class)
				.hasMessageContaining("'/manage/info' is under the Actuator base path '/manage'"));
	}

	@Test
	void whenDisabledTheStarterBacksOff() {
		this.runner.withPropertyValues(SHOP, "degradation.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(DegradationManifest.class)
				.doesNotHaveBean(DegradationEngine.class)
				.doesNotHaveBean("degradationFilter")
				.doesNotHaveBean(DegradationEndpoint.class));
	}

	@Test
	void whenDisabledAnInvalidManifestDoesNotStopStartup() {
		this.runner.withPropertyValues("degradation.manifest=classpath:manifests/broken.yaml",
				"degradation.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void inANonWebApplicationTheCoreRunsWithoutAWebAdapter() {
		// A worker without a web server still calls dependencies: its guards, switches and probes
		// need the engine; only the adapters of the web stacks have nothing to do.
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DegradationAutoConfiguration.class,
					DegradationServletAutoConfiguration.class, DegradationReactiveAutoConfiguration.class,
					DegradationEndpointAutoConfiguration.class, DegradationMetricsAutoConfiguration.class))
			.withPropertyValues(SHOP)
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(DegradationEngine.class)
				.hasSingleBean(RequestDecider.class)
				.doesNotHaveBean("degradationFilter")
				.doesNotHaveBean(DegradationWebFilter.class));
	}

	@Test
	void inAReactiveApplicationTheWebFilterCarriesTheDecisionOut() {
		new ReactiveWebApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DegradationAutoConfiguration.class,
					DegradationServletAutoConfiguration.class, DegradationReactiveAutoConfiguration.class))
			.withPropertyValues(SHOP)
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(DegradationEngine.class)
				.hasSingleBean(DegradationWebFilter.class)
				.doesNotHaveBean("degradationFilter"));
	}

	@Test
	void inAReactiveApplicationTheEndpointsWritesAreCheckedAndTheManifestIsVerifiedAgainstWebFlux() {
		new ReactiveWebApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DegradationAutoConfiguration.class,
					DegradationServletAutoConfiguration.class, DegradationReactiveAutoConfiguration.class,
					DegradationEndpointAutoConfiguration.class, DegradationHealthAutoConfiguration.class,
					DegradationMetricsAutoConfiguration.class))
			.withPropertyValues(SHOP, "management.endpoints.web.exposure.include=degradation")
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(EndpointWriteWebFilter.class)
				.doesNotHaveBean(FilterRegistrationBean.class)
				.hasSingleBean(ManifestVerification.class)
				.hasSingleBean(DegradationEndpoint.class)
				.hasSingleBean(DegradationHealthIndicator.class)
				.hasSingleBean(DegradationMeterBinder.class));
	}

	@Test
	void inAReactiveApplicationAWebFilterOrderBeforeSpringSecurityFailsStartup() {
		new ReactiveWebApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DegradationAutoConfiguration.class,
					DegradationReactiveAutoConfiguration.class))
			.withPropertyValues(SHOP, "degradation.filter.order=-100")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("must be greater than Spring Security's web filter order (-100)"));
	}

	@Test
	void withoutActuatorTheFilterStillWorksAndNoEndpointIsCreated() {
		this.runner.withPropertyValues(SHOP)
			.withClassLoader(new FilteredClassLoader(Endpoint.class))
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(DegradationEngine.class)
				.hasBean("degradationFilter")
				.doesNotHaveBean(DegradationEndpoint.class));
	}

	/**
	 * Spring Boot skips an auto-configuration whose classes are absent from this metadata, before
	 * it reads the class's other condition annotations: with the actuator but without its
	 * auto-configuration module, {@code @ConditionalOnAvailableEndpoint} must never be loaded.
	 */
	@Test
	void theEndpointAutoConfigurationIsGuardedByTheClassesOfItsConditions() throws Exception {
		Properties metadata = PropertiesLoaderUtils
			.loadAllProperties("META-INF/spring-autoconfigure-metadata.properties");
		assertThat(metadata.getProperty(DegradationEndpointAutoConfiguration.class.getName() + ".ConditionalOnClass"))
			.contains("org.springframework.boot.actuate.endpoint.annotation.Endpoint")
			.contains("org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint");
	}

	@Test
	void aConfiguredSwitchThatNamesNothingFailsStartupWithTheKnownNames() {
		this.runner.withPropertyValues(SHOP, "degradation.switches.best-efort=off").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.hasMessage("No tier or named route called 'best-efort'; the switches are: best-effort, enhanced");
			assertThat(context.getStartupFailure()).hasStackTraceContaining("Invalid 'degradation.switches'");
		});
	}

	@Test
	void aConfiguredSwitchShedsItsTierFromStartup() {
		this.runner.withPropertyValues(SHOP, "degradation.switches.best-effort=OFF")
			.run((context) -> assertThat(context.getBean(DegradationEngine.class).state().shedCause(0))
				.isEqualTo("switch:best-effort"));
	}

	@Test
	void admissionCanBeTurnedOffWhateverTheManifestSays() {
		this.runner.withPropertyValues("degradation.manifest=classpath:manifests/overload.yaml")
			.run((context) -> assertThat(context).hasSingleBean(OverloadSignal.class));
		this.runner.withPropertyValues("degradation.manifest=classpath:manifests/overload.yaml",
				"degradation.overload.enabled=false")
			.run((context) -> {
				assertThat(context).hasNotFailed().doesNotHaveBean(OverloadSignal.class);
				assertThat(context.getBean(DegradationEngine.class).signals()).noneMatch(OverloadSignal.class::isInstance);
			});
	}

	@Test
	void oneInfoLineAtStartupNamesTheManifestAndItsCounts(CapturedOutput output) {
		this.runner.withPropertyValues(SHOP).run((context) -> {
			assertThat(context).hasNotFailed();
			String line = "Degradation manifest 'classpath:manifests/shop.yaml' loaded: 2 dependencies, 2 tiers, "
					+ "5 routes; a failed dependency sheds the routes that require it";
			assertThat(output.getOut()).containsOnlyOnce(line);
			assertThat(output.getOut().lines().filter((l) -> l.contains(line))).allMatch((l) -> l.contains("INFO"));
		});
	}

	@Test
	void aUniqueClockBeanIsTheEnginesClockAndTheSystemClockOtherwise() {
		Clock fixed = Clock.fixed(Instant.parse("2026-12-01T10:00:00Z"), ZoneOffset.UTC);
		this.runner.withPropertyValues(SHOP).withBean(Clock.class, () -> fixed).run((context) -> {
			assertThat(context.getBean(DegradationEngine.class).clock()).isSameAs(fixed);
			assertThat(context.getBean(DegradationEngine.class).state().changedAt()).isEqualTo(fixed.instant());
		});
		this.runner.withPropertyValues(SHOP)
			.run((context) -> assertThat(context.getBean(DegradationEngine.class).clock()).isEqualTo(Clock.systemUTC()));
	}

	@Test
	void aHealthProbeBeanReplacesTheHttpProbe() {
		HealthProbe probe = (dependency) -> new ProbeResult(true, ProbeResult.OK, "by the application's probe",
				Instant.now(), Duration.ZERO);
		this.runner.withPropertyValues(SHOP)
			.withBean("applicationProbe", HealthProbe.class, () -> probe)
			.run((context) -> assertThat(context).getBean(HealthProbe.class).isSameAs(probe));
		this.runner.withPropertyValues(SHOP).run((context) -> {
			assertThat(context).getBean(HealthProbe.class).isInstanceOf(HealthSources.class);
			assertThat(context.getBean(HealthSources.class).sources()).hasSize(2)
				.hasExactlyElementsOfTypes(HealthIndicatorProbe.class,
						context.getBean("degradationHealthUrlSource").getClass());
		});
	}

	@Test
	void aHealthSourceBeanJudgesTheDependenciesItSupportsBesideTheStartersSources() {
		ProbeResult byTheApplication = new ProbeResult(true, ProbeResult.OK, "by the application's source",
				Instant.now(), Duration.ZERO);
		DependencyHealthSource source = new DependencyHealthSource() {

			@Override
			public boolean supports(Dependency dependency) {
				return dependency.name().equals("recommendations-api");
			}

			@Override
			public ProbeResult probe(Dependency dependency) {
				return byTheApplication;
			}

		};
		this.runner.withPropertyValues(SHOP)
			.withBean("applicationSource", DependencyHealthSource.class, () -> source)
			.run((context) -> {
				HealthSources probe = context.getBean(HealthSources.class);
				assertThat(probe.sources()).hasSize(3).first().isSameAs(source);
				DegradationManifest manifest = context.getBean(DegradationManifest.class);
				Dependency recommendations = manifest.dependency("recommendations-api").orElseThrow();
				Dependency analytics = manifest.dependency("analytics-collector").orElseThrow();
				assertThat(probe.probe(recommendations)).isSameAs(byTheApplication);
				// The starter's HTTP source still judges the others.
				assertThat(probe.sources().get(0).supports(analytics)).isFalse();
				assertThat(context.getBean("degradationHealthUrlSource", DependencyHealthSource.class).supports(analytics))
					.isTrue();
			});
	}

	@Test
	void withoutBootsHealthTheOnlySourceIsTheHttpOne() {
		this.runner.withPropertyValues(SHOP)
			.withClassLoader(new FilteredClassLoader("org.springframework.boot.health"))
			.run((context) -> {
				assertThat(context).getBean(HealthProbe.class).isInstanceOf(HealthSources.class);
				assertThat(context.getBean(HealthSources.class).sources()).singleElement()
					.satisfies((only) -> assertThat(only).isNotInstanceOf(HealthIndicatorProbe.class));
			});
	}

	@Test
	void aShedSignalBeanIsOneMoreSourceOfShedding() {
		ShedSignal maintenance = new ShedSignal() {

			@Override
			public String name() {
				return "maintenance";
			}

			@Override
			public String kind() {
				return "maintenance";
			}

			@Override
			public ShedDemand demand(Instant now) {
				return ShedDemand.routes(Map.of(0, "maintenance:track"), "in maintenance");
			}

		};
		this.runner.withPropertyValues(SHOP).withBean(ShedSignal.class, () -> maintenance).run((context) -> {
			DegradationEngine engine = context.getBean(DegradationEngine.class);
			assertThat(engine.signals()).contains(maintenance);
			assertThat(engine.evaluate().shedCause(0)).isEqualTo("maintenance:track");
			assertThat(engine.state().shedKind(0)).isEqualTo("maintenance");
		});
	}

	@Test
	void theLevelHeaderCanBeKeptToDegradedAnswers() {
		this.runner.withPropertyValues(SHOP, "degradation.filter.level-header=degraded").run((context) -> {
			DegradationFilter filter = (DegradationFilter) context.getBean("degradationFilter",
					FilterRegistrationBean.class).getFilter();
			MockHttpServletResponse live = new MockHttpServletResponse();
			filter.doFilter(new MockHttpServletRequest("GET", "/api/products"), live, new MockFilterChain());
			assertThat(live.getHeader("X-Degradation-Level")).isNull();
			context.getBean(DegradationEngine.class).simulate(1);
			MockHttpServletResponse shed = new MockHttpServletResponse();
			filter.doFilter(new MockHttpServletRequest("POST", "/api/analytics/track"), shed, new MockFilterChain());
			assertThat(shed.getStatus()).isEqualTo(204);
			assertThat(shed.getHeader("X-Degradation-Level")).isEqualTo("1");
			assertThat(shed.getHeader("X-Degradation-Reason")).isEqualTo("simulation");
		});
	}

	@Test
	void whenPriorityIsEnabledTheFilterHoldsEachRequestsPriorityLoweredByItsCallersForTheChain() {
		this.runner.withPropertyValues(SHOP, "degradation.priority.enabled=true", "degradation.priority.header=X-Prio")
			.run((context) -> {
				DegradationFilter filter = (DegradationFilter) context.getBean("degradationFilter",
						FilterRegistrationBean.class).getFilter();
				assertThat(priorityInChain(filter, "GET", "/api/products", null)).isEqualTo(PassedPriority.CORE);
				assertThat(priorityInChain(filter, "GET", "/api/products", "1")).isEqualTo(1);
				assertThat(priorityInChain(filter, "GET", "/api/recommendations", null)).isEqualTo(2);
				assertThat(priorityInChain(filter, "GET", "/api/recommendations", "core")).isEqualTo(2);
				assertThat(priorityInChain(filter, "GET", "/api/recommendations", "7")).isEqualTo(2);
				assertThat(priorityInChain(filter, "GET", "/api/recommendations", "1")).isEqualTo(1);
				// While something is shed the route is looked up on the other path; the same answer.
				context.getBean(DegradationEngine.class).simulate(1);
				assertThat(priorityInChain(filter, "GET", "/api/recommendations", "7")).isEqualTo(2);
				assertThat(RequestPriority.current()).isNull();
			});
	}

	@Test
	void whenPriorityIsOffTheFilterHoldsNone() {
		this.runner.withPropertyValues(SHOP).run((context) -> {
			DegradationFilter filter = (DegradationFilter) context.getBean("degradationFilter",
					FilterRegistrationBean.class).getFilter();
			assertThat(priorityInChain(filter, "GET", "/api/recommendations", "1")).isNull();
		});
	}

	@Test
	void aBlankPriorityHeaderFailsStartup() {
		this.runner.withPropertyValues(SHOP, "degradation.priority.header= ").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause().hasMessage("'header' must not be empty");
		});
	}

	private static @Nullable Integer priorityInChain(DegradationFilter filter, String method, String path,
			@Nullable String priority) throws Exception {
		MockHttpServletRequest request = new MockHttpServletRequest(method, path);
		if (priority != null) {
			request.addHeader("X-Prio", priority);
		}
		Integer[] seen = new Integer[1];
		filter.doFilter(request, new MockHttpServletResponse(), (req, res) -> seen[0] = RequestPriority.current());
		return seen[0];
	}

	@Test
	void withoutMicrometerNoMeterBinderIsCreated() {
		this.runner.withPropertyValues(SHOP)
			.withClassLoader(new FilteredClassLoader(MeterBinder.class))
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(DegradationEngine.class)
				.doesNotHaveBean(DegradationMeterBinder.class));
	}

	@Test
	void whenTheEndpointIsNotExposedItIsNotCreated() {
		new WebApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DegradationAutoConfiguration.class,
					DegradationEndpointAutoConfiguration.class))
			.withPropertyValues(SHOP)
			.run((context) -> assertThat(context).hasSingleBean(DegradationEngine.class)
				.doesNotHaveBean(DegradationEndpoint.class));
	}

	@Test
	void theFilterIsRegisteredAfterSpringSecurityForRequestDispatchOnly() {
		this.runner.withPropertyValues(SHOP).run((context) -> {
			FilterRegistrationBean<?> registration = context.getBean("degradationFilter",
					FilterRegistrationBean.class);
			assertThat(registration.getOrder()).isEqualTo(DegradationFilter.DEFAULT_ORDER).isGreaterThan(-100);
			assertThat(registration.determineDispatcherTypes()).containsExactly(jakarta.servlet.DispatcherType.REQUEST);
		});
	}

	@Test
	void theFilterOrderCanBeConfigured() {
		this.runner.withPropertyValues(SHOP, "degradation.filter.order=5")
			.run((context) -> assertThat(context.getBean("degradationFilter", FilterRegistrationBean.class).getOrder())
				.isEqualTo(5));
	}

	@Test
	void aFilterOrderThatWouldRunBeforeSpringSecurityFailsStartup() {
		this.runner.withPropertyValues(SHOP, "degradation.filter.order=-100").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("'degradation.filter.order' (-100) must be greater than "
						+ "'spring.security.filter.order' (-100)");
		});
		this.runner.withPropertyValues(SHOP, "spring.security.filter.order=-50")
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("'degradation.filter.order' (-90) must be greater than "
						+ "'spring.security.filter.order' (-50)"));
	}

	@Test
	void withoutSpringSecurityAnyFilterOrderIsAccepted() {
		this.runner.withPropertyValues(SHOP, "degradation.filter.order=-200")
			.withClassLoader(new FilteredClassLoader("org.springframework.security"))
			.run((context) -> assertThat(context).hasNotFailed().hasBean("degradationFilter"));
	}

	@Test
	void aListenerBeanMayDependOnTheEngine() {
		this.runner.withPropertyValues(SHOP).withUserConfiguration(EngineAwareListenerConfiguration.class).run((context) -> {
			assertThat(context).hasNotFailed();
			context.getBean(DegradationEngine.class).simulate(1);
			await().atMost(Duration.ofSeconds(5))
				.untilAsserted(() -> assertThat(context.getBean(EngineAwareListener.class).levels).containsExactly(1));
		});
	}

	@Test
	void aUserManifestBeanIsUsedEvenWithoutAManifestFile() {
		this.runner.withUserConfiguration(UserManifestConfiguration.class).run((context) -> {
			assertThat(context).hasSingleBean(DegradationEngine.class).hasBean("degradationFilter");
			assertThat(context.getBean(DegradationEngine.class).manifest())
				.isSameAs(context.getBean("userManifest"));
		});
	}

	@Test
	void userBeansReplaceOurs() {
		this.runner.withPropertyValues(SHOP).withUserConfiguration(UserBeansConfiguration.class).run((context) -> {
			assertThat(context).getBean(DegradationEngine.class).isSameAs(context.getBean("userEngine"));
			assertThat(context).getBean(RouteTable.class).isSameAs(context.getBean("userRouteTable"));
			assertThat(context).getBean(DegradationChangeReporter.class).isSameAs(context.getBean("userReporter"));
			assertThat(context).getBean(DegradationEndpoint.class).isSameAs(context.getBean("userEndpoint"));
			assertThat(context).getBean(DegradationMeterBinder.class).isSameAs(context.getBean("userMeterBinder"));
			assertThat(context.getBean("degradationFilter")).isSameAs(UserBeansConfiguration.FILTER);
		});
	}

	@Test
	void levelChangesArePublishedAsApplicationEventsAndLoggedOnce(CapturedOutput output) {
		this.runner.withPropertyValues(SHOP).withUserConfiguration(EventRecorderConfiguration.class).run((context) -> {
			context.getBean(DegradationEngine.class).simulate(2);
			List<DegradationLevelChangedEvent> events = context.getBean(EventRecorderConfiguration.class).events;
			await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(events).hasSize(1));
			assertThat(events.get(0).getChange().level()).isEqualTo(2);
			assertThat(events.get(0).getChange().shedTiers()).containsExactly("best-effort", "enhanced");
			assertThat(output.getOut()).containsOnlyOnce(
					"Shed level 0 -> 2 (shed tiers: best-effort, enhanced): simulation at level 2");
		});
	}

	@Test
	void meterBinderRegistersTheLevelGaugeAndOneFallbackCounterPerRouteAndCause() {
		this.runner.withPropertyValues(SHOP).run((context) -> {
			SimpleMeterRegistry registry = new SimpleMeterRegistry();
			context.getBean(DegradationMeterBinder.class).bindTo(registry);
			DegradationEngine engine = context.getBean(DegradationEngine.class);
			engine.simulate(1);
			engine.fallbackCounts().record(0, "simulation");
			engine.fallbackCounts().record(0, "switch");
			engine.fallbackCounts().record(0, "switch");
			assertThat(registry.get("degradation.level").gauge().value()).isEqualTo(1.0);
			// Five routes, each under the kinds of the engine's five signals: dependency, overload,
			// pressure, simulation, switch; and a request's own simulation.
			assertThat(registry.get("degradation.fallbacks").functionCounters()).hasSize(5 * 6);
			assertThat(registry.get("degradation.fallbacks")
				.tag("tier", "best-effort")
				.tag("route", "/api/analytics/track")
				.tag("method", "POST")
				.tag("fallback", "drop")
				.tag("cause", "simulation")
				.tag("scope", "instance")
				.functionCounter()
				.count()).isEqualTo(1.0);
			assertThat(registry.get("degradation.fallbacks")
				.tag("route", "/api/analytics/track")
				.tag("cause", "switch")
				.functionCounter()
				.count()).isEqualTo(2.0);
		});
	}

	@Test
	void theOverloadAndStaleMetersComeOnlyWithAnOverloadSectionAndAStaleRoute() {
		this.runner.withPropertyValues(SHOP).run((context) -> {
			SimpleMeterRegistry registry = new SimpleMeterRegistry();
			context.getBean(DegradationMeterBinder.class).bindTo(registry);
			assertThat(registry.getMeters()).extracting((meter) -> meter.getId().getName())
				.contains("degradation.level")
				.noneMatch((name) -> name.startsWith("degradation.overload.") || name.startsWith("degradation.stale."));
		});
		this.runner.withPropertyValues("degradation.manifest=classpath:manifests/overload.yaml").run((context) -> {
			SimpleMeterRegistry registry = new SimpleMeterRegistry();
			context.getBean(DegradationMeterBinder.class).bindTo(registry);
			assertThat(registry.find("degradation.overload.limit").gauge()).isNotNull();
			assertThat(registry.find("degradation.stale.entries").gauge()).isNull();
		});
		this.runner.withPropertyValues("degradation.manifest=classpath:manifests/reduced.yaml",
				"test.reviews.url=http://127.0.0.1:9/health").run((context) -> {
			SimpleMeterRegistry registry = new SimpleMeterRegistry();
			context.getBean(DegradationMeterBinder.class).bindTo(registry);
			assertThat(registry.find("degradation.stale.entries").gauge()).isNotNull();
			assertThat(registry.find("degradation.stale.answers").functionCounters()).hasSize(4);
			assertThat(registry.find("degradation.overload.limit").gauge()).isNull();
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class EngineAwareListenerConfiguration {

		@Bean
		EngineAwareListener engineAwareListener(DegradationEngine engine) {
			return new EngineAwareListener(engine);
		}

	}

	static class EngineAwareListener implements dev.degradation.engine.DegradationListener {

		final List<Integer> levels = new ArrayList<>();

		private final DegradationEngine engine;

		EngineAwareListener(DegradationEngine engine) {
			this.engine = engine;
		}

		@Override
		public void levelChanged(dev.degradation.engine.LevelChange change) {
			this.levels.add(this.engine.state().level());
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserManifestConfiguration {

		@Bean
		DegradationManifest userManifest() {
			return ManifestLoader.standard()
				.load("user", "tiers: { t: { priority: 1, routes: [ { path: /x, method: GET, fallback: drop } ] } }"
					.getBytes(java.nio.charset.StandardCharsets.UTF_8));
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserBeansConfiguration {

		static final FilterRegistrationBean<DegradationFilter> FILTER = new FilterRegistrationBean<>();

		@Bean
		DegradationEngine userEngine(DegradationManifest manifest) {
			return new DegradationEngine(manifest, Clock.systemUTC());
		}

		@Bean
		RouteTable userRouteTable(DegradationManifest manifest) {
			return RouteTable.compile(manifest);
		}

		@Bean
		DegradationChangeReporter userReporter(org.springframework.context.ApplicationEventPublisher publisher) {
			return new DegradationChangeReporter(publisher);
		}

		@Bean
		DegradationEndpoint userEndpoint(DegradationEngine engine) {
			return new DegradationEndpoint(engine);
		}

		@Bean
		DegradationMeterBinder userMeterBinder(DegradationEngine engine) {
			return new DegradationMeterBinder(engine);
		}

		@Bean
		FilterRegistrationBean<DegradationFilter> degradationFilter() {
			return FILTER;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class EventRecorderConfiguration implements ApplicationListener<DegradationLevelChangedEvent> {

		final List<DegradationLevelChangedEvent> events = new ArrayList<>();

		@Override
		public void onApplicationEvent(DegradationLevelChangedEvent event) {
			this.events.add(event);
		}

	}

}
