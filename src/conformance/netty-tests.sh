#!/usr/bin/env bash
# Runs Netty's own codec-http2 tests against the pooled codec: the tests that build a reader, a writer, a connection
# handler or a frame codec, with Netty's class swapped for the pooled one, and the same tests unchanged as the control.
#
#   src/conformance/netty-tests.sh NETTY_GIT [pooled|rfc9113|stock|both|all]
#
# NETTY_GIT: a clone of github.com/netty/netty (work tree or bare), branch 4.2; the tests are read from its HEAD
# with `git show` into a scratch Maven project under target/netty-tests/, never into this repository. They run
# against Netty $NETTY_VERSION (default 4.2.20.Final) and the pooled codec jar built from this checkout against the
# default Netty (codec/target, not installed into ~/.m2). A report, not a gate: it exits 0 once the runs finish and
# prints, per test class and variant, the counts and the failing tests. Needs Maven Central for Mockito, AssertJ and
# the compression codecs. TESTS="A B" runs only those of the test classes below. both: stock and pooled; all:
# stock, pooled and rfc9113.
#
# The swaps (pooled variant): new DefaultHttp2FrameReader(..) -> new PooledHttp2FrameReader(..);
# new DefaultHttp2FrameWriter(..) -> new PooledHttp2FrameWriter(..) (DefaultHttp2FrameWriterTest's field too);
# new DefaultHttp2ConnectionEncoder(..) -> new PooledHttp2ConnectionEncoder(..);
# new Http2ConnectionHandlerBuilder() -> new PooledHttp2ConnectionHandlerBuilder();
# Http2FrameCodecBuilder.forServer()/forClient()/new Http2FrameCodecBuilder(true) -> PooledHttp2FrameCodecBuilder's;
# in the two header decoder tests (DefaultHttp2HeadersDecoderTest, Http2HeaderBlockIOTest)
# new DefaultHttp2HeadersDecoder(..) -> new PooledHttp2HeadersDecoder(..) (elsewhere the tests use a package-private
# constructor of Netty's that takes its HpackDecoder).
# The rfc9113 variant: the same, with .streamPriorities(false) on every pooled builder, the RFC 9113 scheduler in
# every DefaultHttp2RemoteFlowController a test makes with Netty's default, and Netty's flow controller and
# uniform distributor tests run against that scheduler too.
# STRICT=false adds .strictStreamStates(false) to the connection handler builders (Netty's exact behaviour).
set -euo pipefail

netty=${1:?usage: netty-tests.sh NETTY_GIT [pooled|rfc9113|stock|both|all]}
which=${2:-both}
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$root/target/netty-tests
pkg=codec-http2/src/test/java/io/netty/handler/codec/http2
helpers="Http2TestUtil Http2FrameInboundWriter LastInboundHandler TestChannelInitializer Http2MultiplexClientUpgradeTest"
tests="DefaultHttp2FrameReaderTest DefaultHttp2FrameWriterTest Http2FrameRoundtripTest Http2ConnectionRoundtripTest
  InboundHttp2ToHttpAdapterTest Http2ServerUpgradeCodecTest CleartextHttp2ServerUpgradeHandlerTest DataCompressionHttp2Test Http2FrameCodecTest
  Http2MultiplexTest Http2MultiplexHandlerTest Http2MultiplexTransportTest Http2StreamChannelBootstrapTest
  Http2MultiplexHandlerClientUpgradeTest DefaultHttp2PushPromiseFrameTest Http2ClientUpgradeCodecTest Http2ConnectionHandlerTest
  Http2ControlFrameLimitEncoderTest Http2MaxRstFrameLimitEncoderTest StreamBufferingEncoderTest
  DefaultHttp2HeadersDecoderTest Http2HeaderBlockIOTest
  DefaultHttp2ConnectionEncoderTest DefaultHttp2RemoteFlowControllerTest WeightedFairQueueRemoteFlowControllerTest
  UniformStreamByteDistributorFlowControllerTest UniformStreamByteDistributorTest"
tests=${TESTS:-$tests}
headers_decoder_tests="DefaultHttp2HeadersDecoderTest Http2HeaderBlockIOTest"
headers_decoder=io.pooledh2.codec.PooledHttp2HeadersDecoder
reader=io.pooledh2.codec.PooledHttp2FrameReader
encoder=io.pooledh2.codec.PooledHttp2ConnectionEncoder
writer=io.pooledh2.codec.PooledHttp2FrameWriter
handler=io.pooledh2.codec.PooledHttp2ConnectionHandlerBuilder
codec=io.pooledh2.codec.PooledHttp2FrameCodecBuilder
strict=
if [ "${STRICT:-true}" = false ]; then
  strict=".strictStreamStates(false)"
fi

git -C "$netty" rev-parse --verify -q HEAD > /dev/null || { echo "netty-tests: $netty is not a git clone"; exit 1; }
echo "netty-tests: Netty's tests from $(git -C "$netty" describe --tags HEAD 2>/dev/null || git -C "$netty" rev-parse HEAD)"
netty_version=${NETTY_VERSION:-4.2.20.Final}
(cd "$root" && mvn -B -q package -pl codec -am -DskipTests)
version=$(grep -m1 -o '<version>[^<]*' "$root/pom.xml" | sed 's/<version>//')
codec_jar=$root/codec/target/pooledh2-codec-$version.jar
[ -f "$codec_jar" ] || { echo "netty-tests: $codec_jar missing"; exit 1; }

setup() {
  local dir=$work/$1 tests_dir
  tests_dir=$dir/src/test/java/io/netty/handler/codec/http2
  rm -rf "$dir" && mkdir -p "$tests_dir"
  cat > "$dir/pom.xml" <<EOF
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>scratch</groupId><artifactId>netty-tests-$1</artifactId><version>1</version>
  <properties>
    <maven.compiler.release>17</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <dependencyManagement><dependencies>
    <dependency><groupId>io.netty</groupId><artifactId>netty-bom</artifactId><version>$netty_version</version><type>pom</type><scope>import</scope></dependency>
    <dependency><groupId>org.junit</groupId><artifactId>junit-bom</artifactId><version>6.0.3</version><type>pom</type><scope>import</scope></dependency>
  </dependencies></dependencyManagement>
  <dependencies>
    <dependency><groupId>io.pooledh2</groupId><artifactId>pooledh2-codec</artifactId><version>$version</version>
      <scope>system</scope><systemPath>$codec_jar</systemPath></dependency>
    <dependency><groupId>io.netty</groupId><artifactId>netty-codec-http2</artifactId></dependency>
    <dependency><groupId>io.netty</groupId><artifactId>netty-handler</artifactId></dependency>
    <dependency><groupId>io.netty</groupId><artifactId>netty-pkitesting</artifactId></dependency>
    <dependency><groupId>io.netty</groupId><artifactId>netty-codec-compression</artifactId></dependency>
    <dependency><groupId>com.aayushatharva.brotli4j</groupId><artifactId>brotli4j</artifactId><version>1.16.0</version></dependency>
    <dependency><groupId>com.aayushatharva.brotli4j</groupId><artifactId>native-linux-x86_64</artifactId><version>1.16.0</version></dependency>
    <dependency><groupId>com.github.luben</groupId><artifactId>zstd-jni</artifactId><version>1.5.6-3</version></dependency>
    <dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter</artifactId><scope>test</scope></dependency>
    <dependency><groupId>org.mockito</groupId><artifactId>mockito-core</artifactId><version>3.12.4</version><scope>test</scope></dependency>
    <dependency><groupId>org.assertj</groupId><artifactId>assertj-core</artifactId><version>3.26.3</version><scope>test</scope></dependency>
  </dependencies>
  <build><plugins>
    <plugin><artifactId>maven-compiler-plugin</artifactId><version>3.13.0</version></plugin>
    <plugin><artifactId>maven-surefire-plugin</artifactId><version>3.5.2</version>
      <configuration><argLine>-Dio.netty.leakDetection.level=paranoid</argLine><testFailureIgnore>true</testFailureIgnore></configuration></plugin>
  </plugins></build>
</project>
EOF
  for f in $helpers $tests; do
    git -C "$netty" show "HEAD:$pkg/$f.java" > "$tests_dir/$f.java"
  done
  # Netty 4.2.20's HpackEncoder takes the table size alone (the branch's test utility may predate that).
  sed -i 's/hpackEncoder.setMaxHeaderTableSize(buf, maxHeaderTableSize);/hpackEncoder.setMaxHeaderTableSize(maxHeaderTableSize);/' \
    "$tests_dir/Http2TestUtil.java"
  if [ "$1" != stock ]; then
    sed -i -e "s/new DefaultHttp2FrameReader(/new $reader(/g" \
      -e "s/new DefaultHttp2ConnectionEncoder(/new $encoder(/g" \
      -e "s/private DefaultHttp2FrameReader frameReader/private $reader frameReader/" \
      -e "s/new DefaultHttp2FrameWriter(/new $writer(/g" \
      -e "s/private DefaultHttp2FrameWriter frameWriter/private $writer frameWriter/" \
      -e "s/new Http2ConnectionHandlerBuilder()/new $handler()$strict/g" \
      -e "s/Http2FrameCodecBuilder\.forServer()/$codec.forServer()/g" \
      -e "s/Http2FrameCodecBuilder\.forClient()/$codec.forClient()/g" \
      -e "s/new Http2FrameCodecBuilder(true)\.frameWriter(/((Http2FrameCodecBuilder) $codec.forServer()).frameWriter(/g" \
      -e "s/import static io.netty.handler.codec.http2.Http2FrameCodecBuilder.forClient;/import static $codec.forClient;/" \
      -e "s/import static io.netty.handler.codec.http2.Http2FrameCodecBuilder.forServer;/import static $codec.forServer;/" \
      "$tests_dir"/*.java
    for f in $headers_decoder_tests; do
      if [ -f "$tests_dir/$f.java" ]; then
        sed -i "s/new DefaultHttp2HeadersDecoder(/new $headers_decoder(/g" "$tests_dir/$f.java"
      fi
    done
  fi
  if [ "$1" = rfc9113 ]; then
    # The scheduler is package-private: the tests reach it through a class of the scratch project in its package.
    mkdir -p "$dir/src/test/java/io/pooledh2/codec"
    cat > "$dir/src/test/java/io/pooledh2/codec/NettyTestAccess.java" <<JAVA
package io.pooledh2.codec;

import io.netty.handler.codec.http2.Http2Connection;
import io.netty.handler.codec.http2.StreamByteDistributor;

public final class NettyTestAccess {
    public static StreamByteDistributor rfc9113(Http2Connection connection) {
        return new RoundRobinStreamByteDistributor(connection);
    }
}
JAVA
    if [ -f "$tests_dir/DefaultHttp2RemoteFlowControllerTest.java" ]; then
      cat > "$tests_dir/Rfc9113RemoteFlowControllerTest.java" <<JAVA
package io.netty.handler.codec.http2;

public class Rfc9113RemoteFlowControllerTest extends DefaultHttp2RemoteFlowControllerTest {
    @Override
    protected StreamByteDistributor newDistributor(Http2Connection connection) {
        return io.pooledh2.codec.NettyTestAccess.rfc9113(connection);
    }
}
JAVA
    fi
    if [ -f "$tests_dir/UniformStreamByteDistributorTest.java" ]; then
      sed -e "s/class UniformStreamByteDistributorTest/class Rfc9113UniformStreamByteDistributorTest/" \
        -e "s/private UniformStreamByteDistributor distributor/private StreamByteDistributor distributor/" \
        -e "s/new UniformStreamByteDistributor(connection)/io.pooledh2.codec.NettyTestAccess.rfc9113(connection)/" \
        "$tests_dir/UniformStreamByteDistributorTest.java" > "$tests_dir/Rfc9113UniformStreamByteDistributorTest.java"
    fi
    sed -i -E -e "s/new $handler\(\)/new $handler().streamPriorities(false)/g" \
      -e "s/$codec\.for(Server|Client)\(\)/$codec.for\1().streamPriorities(false)/g" \
      -e "s/([^.a-zA-Z])for(Server|Client)\(\)\.build\(\)/\1for\2().streamPriorities(false).build()/g" \
      -e "s/new DefaultHttp2RemoteFlowController\(([a-zA-Z]+)\)/new DefaultHttp2RemoteFlowController(\1, io.pooledh2.codec.NettyTestAccess.rfc9113(\1))/g" \
      "$tests_dir"/*.java
  fi
}

report() {
  local dir=$work/$1 f name
  echo "netty-tests: $1"
  for f in "$dir"/target/surefire-reports/*.txt; do
    name=$(basename "$f" .txt)
    printf '  %-45s %s\n' "${name##*.}" "$(grep -o 'Tests run: [0-9]*, Failures: [0-9]*, Errors: [0-9]*, Skipped: [0-9]*' "$f")"
    grep -oE '^[a-zA-Z0-9_.]+\.[a-zA-Z0-9_]+(\(.*\))?(\[[0-9]+\])? -- Time elapsed: .* <<< (FAILURE|ERROR)!' "$f" \
      | sed -E 's/ -- Time elapsed: .* <<< / /; s/^[a-zA-Z0-9_.]+\./    /' || true
  done
}

variants=$which
if [ "$which" = both ]; then
  variants="stock pooled"
elif [ "$which" = all ]; then
  variants="stock pooled rfc9113"
fi
for v in $variants; do
  setup "$v"
  (cd "$work/$v" && mvn -B -q test > "$work/$v.log" 2>&1) || { echo "netty-tests: $v did not build, see $work/$v.log"; exit 1; }
done
for v in $variants; do
  report "$v"
done
