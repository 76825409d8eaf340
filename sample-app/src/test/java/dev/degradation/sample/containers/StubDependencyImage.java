package dev.degradation.sample.containers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.spi.ToolProvider;
import java.util.stream.Stream;

import org.testcontainers.images.builder.ImageFromDockerfile;
import org.testcontainers.images.builder.dockerfile.DockerfileBuilder;

/**
 * The image of a {@link StubDependency}, built by the tests from local files only: {@code FROM
 * scratch}, a Java runtime cut down by jlink to {@code java.base} and {@code jdk.httpserver}, the
 * native libraries that runtime links against, and the stub's class. Nothing is pulled from any
 * registry, and the Dockerfile has no {@code RUN} step (which would need a bridged build
 * container).
 */
final class StubDependencyImage {

	static final String NAME = "localhost/degradation-stub-dependency";

	private static final String[] LIBRARIES = { "/lib/x86_64-linux-gnu/libc.so.6", "/lib/x86_64-linux-gnu/libm.so.6",
			"/lib/x86_64-linux-gnu/libz.so.1", "/lib/x86_64-linux-gnu/libgcc_s.so.1",
			"/lib/x86_64-linux-gnu/libstdc++.so.6", "/lib/x86_64-linux-gnu/libpthread.so.0",
			"/lib/x86_64-linux-gnu/libdl.so.2", "/lib/x86_64-linux-gnu/librt.so.1", "/lib64/ld-linux-x86-64.so.2" };

	private StubDependencyImage() {
	}

	static ImageFromDockerfile build(Path workDirectory) {
		Path runtime = jlink(workDirectory.resolve("jre"));
		Path classes = Path.of("target", "test-classes");
		String stubClass = StubDependency.class.getName().replace('.', '/') + ".class";
		ImageFromDockerfile image = new ImageFromDockerfile(NAME, false).withFileFromPath("jre", runtime)
			.withFileFromPath("app/" + stubClass, classes.resolve(stubClass));
		List<String> libraries = new ArrayList<>();
		for (String library : LIBRARIES) {
			if (Files.exists(Path.of(library))) {
				image.withFileFromPath("libs" + library, Path.of(library));
				libraries.add(library);
			}
		}
		return image.withDockerfileFromBuilder((builder) -> dockerfile(builder, libraries, stubClass));
	}

	private static void dockerfile(DockerfileBuilder builder, List<String> libraries, String stubClass) {
		builder.from("scratch");
		for (String library : libraries) {
			builder.copy("libs" + library, library);
		}
		builder.copy("jre/", "/jre/").copy("app/" + stubClass, "/app/" + stubClass).build();
	}

	private static Path jlink(Path output) {
		try {
			if (Files.isRegularFile(output.resolve("bin/java"))) {
				return output;
			}
			if (Files.exists(output)) {
				try (Stream<Path> files = Files.walk(output)) {
					files.sorted((a, b) -> b.getNameCount() - a.getNameCount()).forEach((file) -> file.toFile().delete());
				}
			}
			Files.createDirectories(output.getParent());
			ToolProvider jlink = ToolProvider.findFirst("jlink")
				.orElseThrow(() -> new IllegalStateException("jlink is not available: run the suite on a JDK"));
			int status = jlink.run(System.out, System.err, "--add-modules", "java.base,jdk.httpserver",
					"--strip-debug", "--no-man-pages", "--no-header-files", "--compress=2", "--output",
					output.toString());
			if (status != 0) {
				throw new IllegalStateException("jlink failed with status " + status);
			}
			return output;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
