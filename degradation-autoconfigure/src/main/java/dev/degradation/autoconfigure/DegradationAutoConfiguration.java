package dev.degradation.autoconfigure;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointProperties;
import org.springframework.boot.actuate.autoconfigure.web.server.ManagementPortType;
import org.springframework.boot.actuate.endpoint.web.PathMappedEndpoints;
import org.springframework.boot.actuate.endpoint.web.WebServerNamespace;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.NoneNestedConditions;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.registry.HealthContributorRegistry;
import org.springframework.cloud.context.environment.EnvironmentChangeEvent;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.Environment;
import org.springframework.core.io.ResourceLoader;

import dev.degradation.actuate.HealthIndicatorProbe;
import dev.degradation.actuate.HealthIndicatorVerification;
import dev.degradation.client.DependencyUnavailableException;
import dev.degradation.engine.DegradationEngine;
import dev.degradation.engine.DegradationListener;
import dev.degradation.engine.PressureSignal;
import dev.degradation.engine.ShedSignal;
import dev.degradation.engine.SwitchSignal;
import dev.degradation.engine.periodic.ShedLevelEvaluation;
import dev.degradation.event.DegradationChangeReporter;
import dev.degradation.event.DegradationNotifier;
import dev.degradation.handler.ManifestVerification;
import dev.degradation.manifest.DegradationManifest;
import dev.degradation.manifest.HealthSourceKey;
import dev.degradation.manifest.ShedScope;
import dev.degradation.monitor.DependencyHealthSource;
import dev.degradation.monitor.HealthProbe;
import dev.degradation.monitor.HealthSources;
import dev.degradation.monitor.HttpHealthProbe;
import dev.degradation.engine.OverloadSignal;
import dev.degradation.monitor.probing.DependencyProbing;
import dev.degradation.reload.DegradationSwitches;
import dev.degradation.reload.ManifestLocation;
import dev.degradation.reload.ManifestReloader;
import dev.degradation.web.FallbackKinds;
import dev.degradation.web.RefusedCallers;
import dev.degradation.web.RequestDecider;
import dev.degradation.web.RouteTable;
import dev.degradation.web.ServedFallbackKind;
import dev.degradation.web.StaleAnswers;

/**
 * Auto-configuration of the core of graceful degradation, on no web stack in particular: loads the
 * manifest, creates the engine that holds the shed level and its signals (overload, switches),
 * probes the dependencies once the application is ready, reloads the manifest, and compiles the
 * route table and the request decision that the servlet and the reactive auto-configurations
 * ({@link DegradationServletAutoConfiguration}, {@link DegradationReactiveAutoConfiguration})
 * carry out. Backs off when {@code degradation.enabled=false} and when there is no manifest at an
 * optional location (saying so once at INFO).
 */
@AutoConfiguration
@ConditionalOnBooleanProperty(name = "degradation.enabled", matchIfMissing = true)
@EnableConfigurationProperties({ DegradationProperties.class, DegradationRequestProperties.class,
		DegradationStaleProperties.class })
public final class DegradationAutoConfiguration {

	static final String ACTUATOR_ENDPOINT_CLASS = "org.springframework.boot.actuate.endpoint.annotation.Endpoint";

	static final String DISPATCHER_SERVLET_CLASS = "org.springframework.web.servlet.DispatcherServlet";

	static final String ENVIRONMENT_CHANGE_EVENT_CLASS = "org.springframework.cloud.context.environment.EnvironmentChangeEvent";

	static final String WEB_ENDPOINT_PROPERTIES_CLASS = "org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointProperties";

	static final String HEALTH_CONTRIBUTORS_CLASS = "org.springframework.boot.health.registry.HealthContributorRegistry";

	@Configuration(proxyBeanMethods = false)
	@Conditional(ManifestAvailableCondition.class)
	static class ActiveConfiguration {

		/**
		 * The manifest's file, read once for the manifest and for the reloader.
		 */
		@Bean
		@ConditionalOnMissingBean
		@Conditional(OnManifestCondition.class)
		ManifestFile degradationManifestFile(ResourceLoader resourceLoader, Environment environment) {
			return ManifestFile.read(resourceLoader, environment);
		}

		/**
		 * The built-in fallback kinds with every {@link ServedFallbackKind} bean of the
		 * application, in bean order: a route may name them in the manifest.
		 */
		@Bean
		@ConditionalOnMissingBean
		FallbackKinds degradationFallbackKinds(ObjectProvider<ServedFallbackKind<?>> kinds) {
			return FallbackKinds.with(kinds.orderedStream().toList());
		}

		@Bean
		@ConditionalOnMissingBean
		DegradationManifest degradationManifest(ObjectProvider<ManifestFile> file, Environment environment,
				FallbackKinds kinds, ObjectProvider<DependencyHealthSource> sources,
				ObjectProvider<ActuatorBasePath> actuatorBasePath) {
			ManifestFile read = file.getIfAvailable();
			if (read == null) {
				throw new ManifestNotFoundException(ManifestLocation.of(environment).location());
			}
			return ManifestReloader.loader(environment, ActuatorBasePath.of(actuatorBasePath), kinds, healthSourceKeys(sources))
				.load(read.location().resourceLocation(), read.content());
		}

		/**
		 * The keys of the health sources: a dependency may write one to be judged by its source.
		 */
		private static List<HealthSourceKey> healthSourceKeys(ObjectProvider<DependencyHealthSource> sources) {
			return sources.orderedStream().map(DependencyHealthSource::manifestKey).filter(Objects::nonNull).toList();
		}

		/**
		 * The manifest is reloaded from its location on request and on a configuration refresh;
		 * a manifest given as a bean has no location to be reloaded from.
		 */
		@Bean
		@ConditionalOnMissingBean
		@Conditional(OnManifestCondition.class)
		ManifestReloader degradationManifestReloader(ResourceLoader resourceLoader, Environment environment,
				DegradationEngine engine, ObjectProvider<RequestDecider> decider, StaleAnswers staleAnswers,
				ManifestFile file, ObjectProvider<ManifestVerification> verification,
				ObjectProvider<ManifestReloader.ReplacementCheck> replacementChecks, FallbackKinds kinds,
				ObjectProvider<DependencyHealthSource> sources, ObjectProvider<ActuatorBasePath> actuatorBasePath) {
			ManifestReloader reloader = new ManifestReloader(resourceLoader, environment, engine,
					decider.getIfAvailable(), staleAnswers, file.location().location(), file.content(),
					verification::getIfAvailable, () -> ActuatorBasePath.of(actuatorBasePath));
			reloader.setReplacementChecks(() -> replacementChecks.orderedStream().toList());
			reloader.setPlugins(kinds, healthSourceKeys(sources));
			return reloader;
		}

		@Bean
		@ConditionalOnMissingBean
		DegradationNotifier degradationNotifier() {
			return new DegradationNotifier();
		}

		/**
		 * The engine judges time by the application's {@link Clock} bean when it has exactly one
		 * (a test's controllable clock, say), and by the system clock otherwise. Every
		 * {@link ShedSignal} bean is one more source of shedding.
		 */
		@Bean
		@ConditionalOnMissingBean
		DegradationEngine degradationEngine(DegradationManifest manifest, ObjectProvider<Clock> clock,
				ObjectProvider<ShedSignal> signals, DegradationNotifier notifier) {
			DegradationEngine engine = new DegradationEngine(manifest, clock.getIfUnique(Clock::systemUTC),
					signals.orderedStream().toList(), notifier);
			logLoaded(manifest);
			return engine;
		}

		private static void logLoaded(DegradationManifest manifest) {
			Log logger = LogFactory.getLog(DegradationAutoConfiguration.class);
			if (logger.isInfoEnabled()) {
				logger.info("Degradation manifest '" + manifest.source() + "' loaded: "
						+ manifest.dependencies().size() + " dependencies, " + manifest.tiers().size() + " tiers, "
						+ manifest.routes().size() + " routes; a failed dependency sheds "
						+ ((manifest.defaults().failedDependencySheds() == ShedScope.TIERS)
								? "its tiers and those below them" : "the routes that require it"));
			}
		}

		/**
		 * Admission under load, as the manifest's {@code overload} section says; off with
		 * {@code degradation.overload.enabled=false}, whatever the manifest says.
		 */
		@Bean
		@ConditionalOnMissingBean
		@ConditionalOnBooleanProperty(name = "degradation.overload.enabled", matchIfMissing = true)
		OverloadSignal degradationOverloadSignal(DegradationManifest manifest, ObjectProvider<Clock> clock) {
			return new OverloadSignal(manifest, System::nanoTime, clock.getIfUnique(Clock::systemUTC));
		}

		/**
		 * The manifest's pressure rules, read from the application's meters by the metrics'
		 * auto-configuration; demands nothing without a {@code pressure} section.
		 */
		@Bean
		@ConditionalOnMissingBean
		PressureSignal degradationPressureSignal(DegradationManifest manifest, ObjectProvider<Clock> clock) {
			return new PressureSignal(manifest, clock.getIfUnique(Clock::systemUTC).instant());
		}

		@Bean
		@ConditionalOnMissingBean
		SwitchSignal degradationSwitchSignal(DegradationManifest manifest) {
			return new SwitchSignal(manifest);
		}

		@Bean
		@ConditionalOnMissingBean
		DegradationSwitches degradationSwitches(SwitchSignal signal, DegradationEngine engine, Environment environment) {
			return new DegradationSwitches(signal, engine, environment);
		}

		/**
		 * The Actuator's base path as Boot binds it: {@code WebEndpointProperties}, registered here
		 * too (Boot skips a second registration) so that it is bound in an application whose web
		 * endpoints are not auto-configured, a worker without a web server say, as it was read there
		 * before.
		 */
		@Configuration(proxyBeanMethods = false)
		@ConditionalOnClass(name = WEB_ENDPOINT_PROPERTIES_CLASS)
		@EnableConfigurationProperties(WebEndpointProperties.class)
		static class ActuatorBasePathConfiguration {

			@Bean
			@ConditionalOnMissingBean
			ActuatorBasePath degradationActuatorBasePath(WebEndpointProperties properties,
					ObjectProvider<PathMappedEndpoints> endpoints, Environment environment) {
				return new ActuatorBasePath(properties::getBasePath,
						() -> actuatorPathsElsewhere(properties, endpoints.getIfAvailable(), environment),
						(ManagementPortType.get(environment) == ManagementPortType.DIFFERENT)
								? new ApplicationPort(environment) : () -> -1);
			}

			/**
			 * The Actuator's paths on the application's port outside its base path: every
			 * endpoint's when the base path is the root of the same port, and the additional paths
			 * its health groups take on the application's server ({@code /livez}, {@code /readyz}),
			 * which an orchestrator probes under load too.
			 */
			static Collection<String> actuatorPathsElsewhere(WebEndpointProperties properties,
					@Nullable PathMappedEndpoints endpoints, Environment environment) {
				if (endpoints == null) {
					return List.of();
				}
				List<String> paths = new ArrayList<>();
				String basePath = properties.getBasePath();
				if ((basePath.isEmpty() || basePath.equals("/"))
						&& ManagementPortType.get(environment) == ManagementPortType.SAME) {
					paths.addAll(endpoints.getAllPaths());
				}
				endpoints.stream()
					.forEach((endpoint) -> paths.addAll(endpoint.getAdditionalPaths(WebServerNamespace.SERVER)));
				return paths;
			}

		}

		/**
		 * A Spring Cloud refresh (Config Server, Kubernetes config) reloads the manifest when its
		 * location or its file changed, then re-applies the switches to it.
		 */
		@Configuration(proxyBeanMethods = false)
		@ConditionalOnClass(name = ENVIRONMENT_CHANGE_EVENT_CLASS)
		static class RefreshConfiguration {

			@Bean
			ApplicationListener<EnvironmentChangeEvent> degradationRefresh(ObjectProvider<ManifestReloader> reloader,
					DegradationSwitches switches) {
				return (event) -> {
					reloader.ifAvailable(ManifestReloader::reloadIfChanged);
					if (event.getKeys().stream().anyMatch((key) -> key.startsWith(DegradationSwitches.PREFIX))) {
						switches.reapply();
					}
				};
			}

		}

		/**
		 * Every {@link DependencyHealthSource} bean judges the dependencies it supports; the
		 * first in bean order that supports a dependency probes it, so an application adds a
		 * source (its own come before the starter's unless ordered otherwise) without replacing
		 * one. A {@link HealthProbe} bean of the application's replaces them all. A source's
		 * manifest key is read before the manifest, so sources take the clock, not the engine.
		 */
		@Bean
		@ConditionalOnMissingBean
		HealthProbe degradationHealthProbe(DegradationEngine engine, ObjectProvider<DependencyHealthSource> sources) {
			return new HealthSources(sources.orderedStream().toList(), engine.clock());
		}

		/**
		 * The dependencies with a {@code health_url}, probed over HTTP.
		 */
		@Bean
		@Order(Ordered.LOWEST_PRECEDENCE)
		DependencyHealthSource degradationHealthUrlSource(ObjectProvider<Clock> clock) {
			return DependencyHealthSource.healthUrl(new HttpHealthProbe(clock.getIfUnique(Clock::systemUTC)));
		}

		/**
		 * With Boot's health on the class path, a dependency may be judged by a
		 * {@code health_indicator}.
		 */
		@Configuration(proxyBeanMethods = false)
		@ConditionalOnClass(name = HEALTH_CONTRIBUTORS_CLASS)
		static class HealthIndicatorProbeConfiguration {

			@Bean
			@Order(Ordered.LOWEST_PRECEDENCE)
			HealthIndicatorProbe degradationHealthIndicatorSource(ObjectProvider<Clock> clock,
					ObjectProvider<HealthContributorRegistry> registry) {
				return new HealthIndicatorProbe(registry::getIfAvailable, clock.getIfUnique(Clock::systemUTC));
			}

			@Bean
			@ConditionalOnMissingBean
			HealthIndicatorVerification degradationHealthIndicatorVerification(DegradationManifest manifest,
					ObjectProvider<HealthContributorRegistry> registry, DegradationProperties properties) {
				return new HealthIndicatorVerification(manifest, registry, properties.getVerify());
			}

		}

		/**
		 * Listeners are attached once every bean exists, so that a listener may itself depend
		 * on the engine.
		 */
		@Bean
		static SmartInitializingSingleton degradationListenerRegistration(ObjectProvider<DegradationEngine> engine,
				ObjectProvider<DegradationListener> listeners) {
			return () -> listeners.orderedStream().forEach(engine.getObject()::addListener);
		}

		@Bean
		@ConditionalOnMissingBean
		ShedLevelEvaluation degradationShedLevelEvaluation(DegradationEngine engine) {
			return new ShedLevelEvaluation(engine);
		}

		@Bean
		@ConditionalOnMissingBean
		@ConditionalOnBooleanProperty(name = "degradation.probes.enabled", matchIfMissing = true)
		DependencyProbing degradationDependencyProbing(DegradationEngine engine, HealthProbe probe) {
			return new DependencyProbing(engine, probe);
		}

		@Bean
		@ConditionalOnMissingBean
		DegradationChangeReporter degradationChangeReporter(ApplicationEventPublisher publisher) {
			return new DegradationChangeReporter(publisher);
		}

		@Bean
		@ConditionalOnMissingBean
		RouteTable degradationRouteTable(DegradationEngine engine, StaleAnswers staleAnswers, FallbackKinds kinds) {
			return RouteTable.compile(engine.manifest(), staleAnswers, kinds);
		}

		@Bean
		@ConditionalOnMissingBean
		StaleAnswers degradationStaleAnswers(DegradationEngine engine, DegradationStaleProperties stale) {
			return new StaleAnswers(stale.toLimits(), engine.clock());
		}

		/**
		 * The request decision both web stacks carry out; the Actuator's base path is never shed
		 * nor refused.
		 */
		@Bean
		@ConditionalOnMissingBean
		RequestDecider degradationRequestDecider(DegradationEngine engine, RouteTable routes,
				DegradationRequestProperties properties, DegradationProperties degradation,
				ObjectProvider<ActuatorBasePath> actuatorBasePath, ObjectProvider<OverloadSignal> overload) {
			RequestDecider decider = new RequestDecider(engine, routes, ActuatorBasePath.of(actuatorBasePath),
					overload.getIfUnique(), properties.getDeadline().getHeader(), properties.getDeadline().getMax());
			ActuatorBasePath actuator = actuatorBasePath.getIfAvailable();
			if (actuator != null) {
				decider.reserve(actuator::elsewhere);
				decider.reserveBasePathOffPort(actuator::applicationPort);
			}
			decider.setPriorityHeader(properties.getPriority().headerWhenEnabled());
			decider.setRefusedCalls(DependencyUnavailableException::dependencyWithoutAnswer);
			decider.setBodyLimits(properties.getBody().getTimeout(), properties.getBody().getReadAhead().toBytes());
			decider.setRequestSimulation(properties.getSimulation().getRequests().tokenWhenEnabled());
			decider.setRefusedCallers(new RefusedCallers(degradation.getOverload().getRefusalTurns()));
			return decider;
		}

	}

	@Configuration(proxyBeanMethods = false)
	@Conditional(ManifestUnavailableCondition.class)
	static class InactiveConfiguration {

		@Bean
		static SmartInitializingSingleton degradationInactiveNotice(Environment environment) {
			return () -> LogFactory.getLog(DegradationAutoConfiguration.class)
				.info("No degradation manifest at '" + ManifestLocation.of(environment).location()
						+ "': graceful degradation is inactive");
		}

	}

	static final class ManifestAvailableCondition extends AnyNestedCondition {

		ManifestAvailableCondition() {
			super(ConfigurationPhase.REGISTER_BEAN);
		}

		@Conditional(OnManifestCondition.class)
		static class ManifestResource {

		}

		@ConditionalOnBean(DegradationManifest.class)
		static class ManifestBean {

		}

	}

	static final class ManifestUnavailableCondition extends NoneNestedConditions {

		ManifestUnavailableCondition() {
			super(ConfigurationPhase.REGISTER_BEAN);
		}

		@Conditional(OnManifestCondition.class)
		static class ManifestResource {

		}

		@ConditionalOnBean(DegradationManifest.class)
		static class ManifestBean {

		}

	}

}
