package org.medjava.store.server.front;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFactory;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelConfig;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketProtocolFamily;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerUpgradeHandler;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http2.CleartextHttp2ServerUpgradeHandler;
import io.netty.handler.codec.http2.DefaultHttp2Connection;
import io.netty.handler.codec.http2.DefaultHttp2RemoteFlowController;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2ServerUpgradeCodec;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2SettingsFrame;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.handler.codec.http2.Http2StreamFrameToHttpObjectCodec;
import io.netty.handler.codec.http2.UniformStreamByteDistributor;
import io.netty.handler.codec.http2.Http2SecurityUtil;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.ApplicationProtocolNegotiationHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.SupportedCipherSuiteFilter;
import io.netty.handler.stream.ChunkedWriteHandler;
import io.netty.util.AsciiString;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import javax.net.ssl.KeyManagerFactory;

/**
 * The store's public HTTP port, on Netty: HTTP/1.1, and HTTP/2 over cleartext (h2c, by upgrade or with prior
 * knowledge); its HTTPS port, HTTP/1.1 and HTTP/2 (h2) chosen by ALPN; on a few event loops (one per core, epoll where Linux has it). Each request is answered by
 * {@link FrontHandler}: a plain read on the event loop itself, anything else relayed to Payara's listener behind it on
 * the loopback ({@link Backend}). Payara stays the application's platform; its HTTP engine, whose per-request work
 * (parsing, a hand-off to a worker thread, the container's valves) kept the store at a quarter of nginx's rate on
 * small reads, no longer stands on the read path.
 */
final class FrontServer implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(FrontServer.class.getName());
    /** How long a connection with no request in progress stays open (nginx's keepalive_timeout is 75 s). */
    private static final Duration IDLE = Duration.ofSeconds(60);
    /** How long a connection may be silent both ways before it is closed (any protocol). */
    private static final Duration SILENCE = Duration.ofMinutes(5);
    /** What an h2c upgrade request may carry (it carries none: see shouldHandleUpgradeRequest). */
    private static final int UPGRADE_BODY = 8192;
    /** HTTP/2: the streams one connection may have open at once. */
    private static final int MAX_STREAMS = 128;

    private final EventLoopGroup group;
    private final Backend backend;
    private final FrontDicomWeb dicomWeb;
    private final Channel listener;
    private final Channel tlsListener;

    /**
     * @param bind          where clients connect
     * @param tlsBind       where clients connect over TLS (null: no HTTPS)
     * @param tls           the server's TLS context, with ALPN for h2 and http/1.1
     * @param payara        Payara's HTTP listener on the loopback
     * @param maxRelayed    requests relayed to Payara at once
     * @param maxWaiting    requests waiting for that, beyond which the front answers 503
     * @param reads         the plain reads answered on the event loops
     * @param dicomWeb      the DICOMweb reads taken up by the front (null: none, all relayed)
     * @param headerTimeout how long a request's line and headers may take (zero: no limit)
     */
    FrontServer(InetSocketAddress bind, InetSocketAddress tlsBind, SslContext tls, InetSocketAddress payara,
                int maxRelayed, int maxWaiting, FrontReads reads, FrontDicomWeb dicomWeb, Duration headerTimeout)
            throws InterruptedException, UnknownHostException {
        this.dicomWeb = dicomWeb;
        boolean epoll = Epoll.isAvailable();
        IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        // one event loop per core: four on two cores served 3-5% more small reads for 10% more CPU (measured)
        this.group = new MultiThreadIoEventLoopGroup(Runtime.getRuntime().availableProcessors(),
                new DefaultThreadFactory("medjava-http", true), io);
        this.backend = new Backend(group, epoll ? EpollSocketChannel.class : NioSocketChannel.class, payara,
                maxRelayed, maxWaiting, TimeUnit.SECONDS.toMillis(10));
        // Payara sets java.net.preferIPv4Stack, which makes Java's sockets IPv4 only: a front on every interface
        // asks epoll for an IPv6 socket, which takes IPv4 too (::1 and 127.0.0.1 both reach it)
        boolean dualStack = epoll && bind.getAddress() != null && bind.getAddress().isAnyLocalAddress() && ipv6();
        SocketProtocolFamily family = dualStack ? SocketProtocolFamily.INET6 : SocketProtocolFamily.INET;
        ChannelFactory<ServerChannel> serverType = epoll ? () -> new EpollServerSocketChannel(family)
                : () -> new NioServerSocketChannel(java.nio.channels.spi.SelectorProvider.provider(), family);
        if (dualStack) {
            bind = new InetSocketAddress(InetAddress.getByName("::"), bind.getPort());
            if (tlsBind != null) {
                tlsBind = new InetSocketAddress(InetAddress.getByName("::"), tlsBind.getPort());
            }
        }
        long headerNanos = headerTimeout.toNanos();
        ChannelInitializer<Http2StreamChannel> streams = streams(reads, false);
        ChannelInitializer<Http2StreamChannel> secureStreams = streams(reads, true);
        ServerBootstrap bootstrap = new ServerBootstrap().group(group).channelFactory(serverType)
                .option(ChannelOption.SO_BACKLOG, 1024)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ChannelPipeline p = ch.pipeline();
                        p.addLast("silence", silence());
                        p.addLast("clock", new HeaderClock(headerNanos, IDLE.toNanos()));
                        HttpServerCodec codec = codec();
                        HttpServerUpgradeHandler upgrade = new HttpServerUpgradeHandler(codec, protocol ->
                                AsciiString.contentEquals(Http2CodecUtil.HTTP_UPGRADE_PROTOCOL_NAME, protocol)
                                        ? new Http2ServerUpgradeCodec(http2(), new Http2MultiplexHandler(streams))
                                        : null, UPGRADE_BODY) {
                            @Override
                            protected boolean shouldHandleUpgradeRequest(HttpRequest request) {
                                // the upgrade would hold the whole body in memory: a request with one (a PUT of
                                // any size) is answered over HTTP/1.1, which RFC 9113 §3.2 leaves to the server
                                return !HttpUtil.isTransferEncodingChunked(request)
                                        && HttpUtil.getContentLength(request, 0L) == 0
                                        && super.shouldHandleUpgradeRequest(request);
                            }
                        };
                        p.addLast("h2c", new CleartextHttp2ServerUpgradeHandler(codec, upgrade,
                                new ChannelInitializer<Channel>() {
                                    @Override
                                    protected void initChannel(Channel c) {
                                        c.pipeline().addLast(http2(), new Http2MultiplexHandler(streams));
                                    }
                                }));
                        p.addLast("front", new FrontHandler(reads, dicomWeb, backend, false, false));
                    }
                });
        ServerBootstrap secure = bootstrap.clone().childHandler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast("silence", silence());
                ch.pipeline().addLast("tls", tls.newHandler(ch.alloc()));
                ch.pipeline().addLast("alpn", new ApplicationProtocolNegotiationHandler(ApplicationProtocolNames.HTTP_1_1) {
                    @Override
                    protected void configurePipeline(ChannelHandlerContext ctx, String protocol) {
                        ChannelPipeline p = ctx.pipeline();
                        if (ApplicationProtocolNames.HTTP_2.equals(protocol)) {
                            p.addLast(http2(), new Http2MultiplexHandler(secureStreams));
                        } else {
                            p.addLast("clock", new HeaderClock(headerNanos, IDLE.toNanos()));
                            p.addLast("codec", codec());
                            p.addLast("chunks", new ChunkedWriteHandler());
                            p.addLast("front", new FrontHandler(reads, dicomWeb, backend, false, true));
                        }
                    }
                });
            }
        });
        Channel plain = null;
        try {
            plain = bootstrap.bind(bind).sync().channel();
            this.listener = plain;
            this.tlsListener = tlsBind == null ? null : secure.bind(tlsBind).sync().channel();
        } catch (InterruptedException | RuntimeException e) { // the port is taken, or not ours to take
            if (plain != null) {
                plain.close();
            }
            backend.close();
            group.shutdownGracefully(0, 5, TimeUnit.SECONDS);
            throw e;
        }
        LOG.info("HTTP on " + bind + " (HTTP/1.1 and h2c" + (tlsBind == null ? "" : "; HTTPS on " + tlsBind
                + ", HTTP/1.1 and h2") + ", " + (epoll ? "epoll" : "NIO") + "); Payara behind it on " + payara);
    }

    /** Whether the kernel has IPv6 (Linux lists its IPv6 interfaces there only then). */
    private static boolean ipv6() {
        return java.nio.file.Files.exists(Path.of("/proc/net/if_inet6"));
    }

    /** Closes a connection on which nothing has moved either way for {@link #SILENCE}. */
    private static Silence silence() {
        return new Silence(SILENCE.toSeconds(), TimeUnit.SECONDS);
    }

    private static HttpServerCodec codec() {
        return new HttpServerCodec(new HttpDecoderConfig().setMaxInitialLineLength(8192).setMaxHeaderSize(16384)
                .setMaxChunkSize(65536));
    }

    private ChannelInitializer<Http2StreamChannel> streams(FrontReads reads, boolean secure) {
        return new ChannelInitializer<>() {
            @Override
            protected void initChannel(Http2StreamChannel stream) {
                ChannelConfig connection = stream.parent().config();
                if (connection.getWriteBufferWaterMark() != H2_WATER_MARK) {
                    // a connection's 100 streams share its buffer: at the default 32-64 KiB two answers fill it,
                    // and every change of its writability is passed to each stream
                    connection.setWriteBufferWaterMark(H2_WATER_MARK);
                }
                Http2FrameCodec codec = stream.parent().pipeline().get(Http2FrameCodec.class);
                if (codec != null && !codec.decoder().prefaceReceived()) { // the request of an h2c upgrade
                    stream.config().setAutoRead(false);
                    stream.parent().pipeline().addLast(new PrefaceWait(stream));
                }
                stream.pipeline().addLast(new Http2StreamFrameToHttpObjectCodec(true), new ChunkedWriteHandler(),
                        new FrontHandler(reads, dicomWeb, backend, true, secure));
            }
        };
    }

    /**
     * Holds the request of an h2c upgrade (stream 1) until the client's connection preface has arrived, that is
     * until the client reads the connection as HTTP/2. Answered at once, its answer followed the 101 in the same
     * segments, and the JDK's HttpClient (17 to 25 at least) drops what of it comes in the same socket read as the
     * 101 beyond its first 16 KiB buffer: it hands those buffers to its HTTP/1.1 reader after that reader was
     * drained for HTTP/2, and then waits for ever for the rest of a DATA frame. curl 7.88 gives the request up
     * when more than 32 KiB follow the 101.
     */
    private static final class PrefaceWait extends ChannelInboundHandlerAdapter {
        private final Http2StreamChannel stream;

        PrefaceWait(Http2StreamChannel stream) {
            this.stream = stream;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            boolean preface = msg instanceof Http2SettingsFrame; // the first frame the client sends
            ctx.fireChannelRead(msg);
            if (preface) {
                ctx.pipeline().remove(this);
                stream.config().setAutoRead(true);
            }
        }
    }

    /** A server TLS context from a key store (PKCS#12 or JKS), offering h2 and http/1.1 by ALPN. */
    static SslContext tls(Path keyStore, char[] password) throws IOException, GeneralSecurityException {
        KeyStore store = KeyStore.getInstance(keyStore.toFile(), password);
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(store, password);
        return SslContextBuilder.forServer(keys).sslProvider(SslProvider.JDK)
                .ciphers(Http2SecurityUtil.CIPHERS, SupportedCipherSuiteFilter.INSTANCE)
                .applicationProtocolConfig(new ApplicationProtocolConfig(ApplicationProtocolConfig.Protocol.ALPN,
                        ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
                        ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT,
                        ApplicationProtocolNames.HTTP_2, ApplicationProtocolNames.HTTP_1_1))
                .build();
    }

    private static final WriteBufferWaterMark H2_WATER_MARK = new WriteBufferWaterMark(512 * 1024, 1024 * 1024);

    private static Http2FrameCodec http2() {
        DefaultHttp2Connection connection = new DefaultHttp2Connection(true);
        // the streams' answers share the connection in turn, without the weighted fair queue's priority tree:
        // RFC 9113 deprecates priorities, and ordering them cost a tenth of the event loop at 100 streams (measured)
        connection.remote().flowController(new DefaultHttp2RemoteFlowController(connection,
                new UniformStreamByteDistributor(connection)));
        return new Http2FrameCodecBuilder() {
            {
                connection(connection);
            }
        }.gracefulShutdownTimeoutMillis(0)
                .initialSettings(Http2Settings.defaultSettings().maxConcurrentStreams(MAX_STREAMS))
                .build();
    }

    /** The port clients connect to. */
    int port() {
        return ((InetSocketAddress) listener.localAddress()).getPort();
    }

    /** The TCP connection a channel belongs to: itself, or an HTTP/2 stream's connection. */
    static Channel connection(Channel channel) {
        return channel instanceof Http2StreamChannel stream ? stream.parent() : channel;
    }

    /** An address as the servlet API writes it ({@code getRemoteAddr()}): the IP address alone. */
    static String address(SocketAddress address) {
        return address instanceof InetSocketAddress inet && inet.getAddress() != null
                ? inet.getAddress().getHostAddress() : String.valueOf(address);
    }

    @Override
    public void close() {
        listener.close().syncUninterruptibly();
        if (tlsListener != null) {
            tlsListener.close().syncUninterruptibly();
        }
        backend.close();
        group.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
