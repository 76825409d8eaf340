package dev.degradation.shapes.worker;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A worker: no web starter, no web server, only the starter and the Actuator. It asks the engine
 * whether a tier is shed before it does optional work; the manifest's routes name what it would
 * serve if it had a web side.
 */
@SpringBootApplication
public class WorkerShapeApplication {

	public static void main(String[] args) {
		SpringApplication.run(WorkerShapeApplication.class, args);
	}

}
