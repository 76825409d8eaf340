package dev.degradation.manifest;

/**
 * Where something stands in a manifest file, so that a problem can point at it.
 *
 * @param line the line, starting at 1
 * @param column the column, starting at 1
 */
public record Position(int line, int column) implements Comparable<Position> {

	/** The start of a file, used for problems that concern the whole document. */
	public static final Position START = new Position(1, 1);

	@Override
	public int compareTo(Position other) {
		int byLine = Integer.compare(this.line, other.line);
		return (byLine != 0) ? byLine : Integer.compare(this.column, other.column);
	}

	@Override
	public String toString() {
		return this.line + ":" + this.column;
	}

}
