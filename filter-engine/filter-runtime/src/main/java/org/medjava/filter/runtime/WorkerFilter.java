package org.medjava.filter.runtime;

import org.medjava.filter.Filter;
import org.medjava.filter.FilterDescriptor;
import org.medjava.filter.FilterParams;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Implementation;
import org.medjava.filter.Raster;
import org.medjava.filter.Region;

/**
 * A filter that lives in the worker processes: the host holds this stand-in, with the descriptor the worker read,
 * and every call goes to a worker through shared memory ({@link FilterWorkers#apply}). No plugin code runs in the
 * host.
 */
final class WorkerFilter implements Filter {
    private final FilterWorkers workers;
    private final FilterWorkers.Plugin plugin;
    private final FilterDescriptor descriptor;
    private final boolean gray16;

    WorkerFilter(FilterWorkers workers, FilterWorkers.Plugin plugin, FilterDescriptor descriptor, boolean gray16) {
        this.workers = workers;
        this.plugin = plugin;
        this.descriptor = descriptor;
        this.gray16 = gray16;
    }

    /** The version is replaced, removed or FAILED: a call cancelled now may still finish, as in-process. */
    void retired() {
        workers.gone(plugin);
    }

    /** The worker-side version this stands in for. */
    String pluginKey() {
        return plugin.key();
    }

    @Override
    public FilterDescriptor descriptor() {
        return descriptor;
    }

    @Override
    public boolean supportsGray16() {
        return gray16;
    }

    @Override
    public void apply(Raster src, Raster dst, Region region, FilterParams params, Implementation implementation) {
        int bytes = src.width() * src.height() * 3;
        int rowBytes = src.width() * 3;
        workers.apply(plugin, descriptor.id(), new FilterWorkers.Shape(FilterWorkerMain.RGB, src.width(),
                        src.height(), 0, false, bytes), region, params, implementation,
                segment -> segment.put(src.rgb(), 0, bytes),
                segment -> segment.get(dst.rgb(), region.y() * rowBytes, region.height() * rowBytes));
    }

    @Override
    public void applyGray16(GrayRaster16 src, GrayRaster16 dst, Region region, FilterParams params,
                            Implementation implementation) {
        int words = src.width() * src.height();
        workers.apply(plugin, descriptor.id(), new FilterWorkers.Shape(FilterWorkerMain.GRAY16, src.width(),
                        src.height(), src.bitsStored(), src.signed(), 2L * words), region, params, implementation,
                segment -> segment.put(src.words(), 0, words),
                segment -> segment.get(dst.words(), region.y() * src.width(), region.height() * src.width()));
    }
}
