package dev.degradation.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * The layers of DESIGN.md, checked on the compiled classes: the manifest, the monitor, admission,
 * the engine and the request decision know no web stack; each stack's adapter knows only its own;
 * and no package points back up to a user of it.
 */
class LayerTests {

	private static final JavaClasses classes = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.importPackages("dev.degradation");

	private static final String[] SERVLET = { "jakarta.servlet..", "org.springframework.web.servlet..",
			"org.springframework.web.filter..", "org.springframework.boot.web.servlet.." };

	private static final String[] REACTIVE = { "reactor..", "org.reactivestreams..",
			"org.springframework.web.server..", "org.springframework.web.reactive..",
			"org.springframework.http.server.reactive.." };

	@Test
	void theCoreAndTheDecisionKnowNoWebStack() {
		ArchRule servlet = noClasses().that()
			.resideInAnyPackage("dev.degradation.manifest", "dev.degradation.monitor", "dev.degradation.overload",
					"dev.degradation.engine", "dev.degradation.web")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage(SERVLET);
		ArchRule reactive = noClasses().that()
			.resideInAnyPackage("dev.degradation.manifest", "dev.degradation.monitor", "dev.degradation.overload",
					"dev.degradation.engine", "dev.degradation.web")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage(REACTIVE);
		servlet.check(classes);
		reactive.check(classes);
	}

	@Test
	void eachAdapterKnowsOnlyItsOwnStack() {
		noClasses().that()
			.resideInAPackage("dev.degradation.web.servlet")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage(REACTIVE)
			.orShould()
			.dependOnClassesThat()
			.resideInAPackage("dev.degradation.web.reactive")
			.check(classes);
		noClasses().that()
			.resideInAPackage("dev.degradation.web.reactive")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage(SERVLET)
			.orShould()
			.dependOnClassesThat()
			.resideInAPackage("dev.degradation.web.servlet")
			.check(classes);
	}

	@Test
	void theLowerLayersUseOnlyWhatIsBelowThem() {
		noClasses().that()
			.resideInAPackage("dev.degradation.manifest")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("dev.degradation.monitor..", "dev.degradation.overload..", "dev.degradation.engine..",
					"dev.degradation.web..", "dev.degradation.client..", "dev.degradation.actuate..",
					"dev.degradation.autoconfigure..", "dev.degradation.parts..")
			.check(classes);
		noClasses().that()
			.resideInAnyPackage("dev.degradation.monitor", "dev.degradation.overload")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("dev.degradation.engine..", "dev.degradation.web..", "dev.degradation.client..",
					"dev.degradation.actuate..", "dev.degradation.autoconfigure..", "dev.degradation.parts..")
			.check(classes);
		noClasses().that()
			.resideInAPackage("dev.degradation.engine")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("dev.degradation.web..", "dev.degradation.client..", "dev.degradation.actuate..",
					"dev.degradation.autoconfigure..", "dev.degradation.parts..")
			.check(classes);
	}

	@Test
	void theDecisionPointsToNoAdapterNorToWhatUsesIt() {
		noClasses().that()
			.resideInAPackage("dev.degradation.web")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("dev.degradation.web.servlet..", "dev.degradation.web.reactive..",
					"dev.degradation.client..", "dev.degradation.actuate..", "dev.degradation.autoconfigure..")
			.check(classes);
	}

	@Test
	void theGatewayUsesOnlyTheClientTheEngineTheDecisionAndTheManifest() {
		noClasses().that()
			.resideInAPackage("dev.degradation.gateway")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("dev.degradation.web.servlet..", "dev.degradation.web.reactive..",
					"dev.degradation.actuate..", "dev.degradation.autoconfigure..", "dev.degradation.parts..",
					"dev.degradation.overload..", "dev.degradation.monitor..")
			.orShould()
			.dependOnClassesThat()
			.resideInAnyPackage(SERVLET)
			.check(classes);
		noClasses().that()
			.resideOutsideOfPackages("dev.degradation.gateway..", "dev.degradation.autoconfigure..")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("dev.degradation.gateway..")
			.check(classes);
	}

	@Test
	void theRuntimeBesideTheCoreRunsItAndNothingInTheCoreRunsIt() {
		noClasses().that()
			.resideInAnyPackage("dev.degradation.manifest..", "dev.degradation.monitor", "dev.degradation.overload..",
					"dev.degradation.engine", "dev.degradation.web..", "dev.degradation.client..",
					"dev.degradation.gateway..", "dev.degradation.handler..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("dev.degradation.engine.periodic..", "dev.degradation.monitor.probing..",
					"dev.degradation.reload..")
			.check(classes);
		noClasses().that()
			.resideInAnyPackage("dev.degradation.engine.periodic..", "dev.degradation.monitor.probing..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("dev.degradation.web..", "dev.degradation.client..", "dev.degradation.gateway..",
					"dev.degradation.actuate..", "dev.degradation.autoconfigure..", "dev.degradation.parts..",
					"dev.degradation.handler..", "dev.degradation.reload..", "dev.degradation.event..")
			.check(classes);
		noClasses().that()
			.resideInAPackage("dev.degradation.reload..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("dev.degradation.web.servlet..", "dev.degradation.web.reactive..",
					"dev.degradation.client..", "dev.degradation.gateway..", "dev.degradation.actuate..",
					"dev.degradation.autoconfigure..", "dev.degradation.parts..", "dev.degradation.event..")
			.check(classes);
	}

	@Test
	void discoveryFeedsTheMonitorAndOnlyTheAutoConfigurationUsesIt() {
		noClasses().that()
			.resideInAPackage("dev.degradation.discovery..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("dev.degradation.engine..", "dev.degradation.web..", "dev.degradation.client..",
					"dev.degradation.gateway..", "dev.degradation.actuate..", "dev.degradation.autoconfigure..",
					"dev.degradation.parts..", "dev.degradation.handler..", "dev.degradation.reload..",
					"dev.degradation.event..")
			.check(classes);
		noClasses().that()
			.resideOutsideOfPackages("dev.degradation.discovery..", "dev.degradation.autoconfigure..")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("dev.degradation.discovery..")
			.check(classes);
	}

	@Test
	void theHandlerReadingUsesTheDecisionAndTheManifestAndOnlyTheAutoConfigurationUsesIt() {
		noClasses().that()
			.resideInAPackage("dev.degradation.handler..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("dev.degradation.web.servlet..", "dev.degradation.web.reactive..",
					"dev.degradation.client..", "dev.degradation.gateway..", "dev.degradation.actuate..",
					"dev.degradation.autoconfigure..", "dev.degradation.parts..", "dev.degradation.event..")
			.check(classes);
		noClasses().that()
			.resideInAnyPackage("dev.degradation.manifest..", "dev.degradation.monitor..", "dev.degradation.overload..",
					"dev.degradation.engine..", "dev.degradation.web..", "dev.degradation.client..",
					"dev.degradation.gateway..", "dev.degradation.actuate..", "dev.degradation.parts..",
					"dev.degradation.event..")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("dev.degradation.handler..")
			.check(classes);
	}

	@Test
	void theEventsTellTheApplicationAndNoLayerBelowListensToThem() {
		noClasses().that()
			.resideInAnyPackage("dev.degradation.manifest..", "dev.degradation.monitor..", "dev.degradation.overload..",
					"dev.degradation.engine..", "dev.degradation.web..", "dev.degradation.client..",
					"dev.degradation.gateway..", "dev.degradation.actuate..", "dev.degradation.parts..")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("dev.degradation.event..")
			.check(classes);
		noClasses().that()
			.resideInAPackage("dev.degradation.event..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("dev.degradation.web..", "dev.degradation.client..", "dev.degradation.gateway..",
					"dev.degradation.actuate..", "dev.degradation.autoconfigure..", "dev.degradation.parts..")
			.orShould()
			.dependOnClassesThat()
			.resideInAnyPackage(SERVLET)
			.orShould()
			.dependOnClassesThat()
			.resideInAnyPackage(REACTIVE)
			.check(classes);
	}

	@Test
	void nothingButTheAutoConfigurationUsesTheAutoConfiguration() {
		noClasses().that()
			.resideOutsideOfPackage("dev.degradation.autoconfigure..")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("dev.degradation.autoconfigure..")
			.check(classes);
		noClasses().that()
			.resideInAnyPackage("dev.degradation.client..", "dev.degradation.web..")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("dev.degradation.actuate..")
			.check(classes);
	}

}
