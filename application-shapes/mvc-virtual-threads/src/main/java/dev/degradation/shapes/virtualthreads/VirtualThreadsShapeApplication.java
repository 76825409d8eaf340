package dev.degradation.shapes.virtualthreads;

import java.util.Map;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.servlet.function.ServerResponse;

/**
 * A Spring MVC application on virtual threads ({@code spring.threads.virtual.enabled}), with an
 * annotated route and a functional one. Its routes say which thread served them, so that the test
 * sees the requests really ran on virtual threads.
 */
@SpringBootApplication
public class VirtualThreadsShapeApplication {

	public static void main(String[] args) {
		SpringApplication.run(VirtualThreadsShapeApplication.class, args);
	}

	/**
	 * The functional route.
	 * @return the router function
	 */
	@Bean
	RouterFunction<ServerResponse> functionalRoutes() {
		return RouterFunctions.route()
			.GET("/api/functional", (request) -> ServerResponse.ok().body(Map.of("source", "live", "thread", Thread.currentThread().toString())))
			.build();
	}

	/**
	 * The annotated route.
	 */
	@RestController
	static class AnnotatedController {

		@GetMapping("/api/annotated")
		Map<String, String> annotated() {
			return Map.of("source", "live", "thread", Thread.currentThread().toString());
		}

	}

}
