package dev.degradation.sample.containers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.spi.ToolProvider;
import java.util.stream.Stream;

import org.testcontainers.images.builder.ImageFromDockerfile;
import org.testcontainers.images.builder.dockerfile.DockerfileBuilder;

import dev.degradation.fixture.LoopbackDependency;

/**
 * The image of a {@link StubDependency}, built by the tests from local files only: {@code FROM
 * scratch}, a Java runtime cut down by jlink to {@code java.base}, the native libraries that
 * runtime links against, the stub's class and the test fixture's classes (the loopback dependency
 * it serves with), both under {@code /app}. Nothing is pulled from any registry, and the Dockerfile
 * has no {@code RUN} step (which would need a bridged build container).
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
			.withFileFromPath("app/" + stubClass, classes.resolve(stubClass))
			.withFileFromPath("fixture", fixtureClasses());
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
		builder.copy("jre/", "/jre/").copy("app/" + stubClass, "/app/" + stubClass).copy("fixture/", "/app/").build();
	}

	/**
	 * Return the test fixture's classes, a directory in a reactor build: the image copies them
	 * beside the stub's class.
	 */
	private static Path fixtureClasses() {
		try {
			Path location = Path.of(LoopbackDependency.class.getProtectionDomain().getCodeSource().getLocation().toURI());
			if (Files.isDirectory(location)) {
				return location;
			}
			Path unpacked = Path.of("target", "container-suite", "fixture");
			if (!Files.isDirectory(unpacked.resolve("dev"))) {
				try (FileSystem jar = FileSystems.newFileSystem(location)) {
					Path root = jar.getPath("/");
					try (Stream<Path> files = Files.walk(root)) {
						for (Path file : (Iterable<Path>) files::iterator) {
							Path target = unpacked.resolve(root.relativize(file).toString());
							if (Files.isDirectory(file)) {
								Files.createDirectories(target);
							}
							else {
								Files.copy(file, target, StandardCopyOption.REPLACE_EXISTING);
							}
						}
					}
				}
			}
			return unpacked;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (URISyntaxException ex) {
			throw new IllegalStateException(ex);
		}
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
			int status = jlink.run(System.out, System.err, "--add-modules", "java.base",
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
