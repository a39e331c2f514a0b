package org.medjava.viewer.series;

/** One image of a stack: a store file and a frame of it (0 for single-frame objects). */
public record StackItem(String path, int frame, Integer instanceNumber) {
}
