// DynamoDB Local bound to 127.0.0.1. Its own main (DynamoDBLocal.jar) has no option for the
// address: it builds a Jetty Server(port), whose connector listens on every interface. This
// builds the same server from the same command-line options (ServerRunner), sets its
// connector's host to the loopback address before it starts, then starts it. Anything else
// than the one Jetty ServerConnector it expects is a failure to start, never a server on
// every interface. Run by scripts/lib/local-dynamodb.mjs with Java's source-file launcher
// (`java -cp <DynamoDB Local's jars> DynamoDBLoopback.java <options>`).
import java.lang.reflect.Field;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

public class DynamoDBLoopback {
  public static void main(String[] args) throws Exception {
    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(args);
    Field field = DynamoDBProxyServer.class.getDeclaredField("server");
    field.setAccessible(true);
    Server server = (Server) field.get(proxy);
    Connector[] connectors = server.getConnectors();
    if (connectors.length != 1 || !(connectors[0] instanceof ServerConnector)) {
      throw new IllegalStateException("DynamoDB Local's server is not the one Jetty connector expected: not started");
    }
    ((ServerConnector) connectors[0]).setHost("127.0.0.1");
    proxy.start();
  }
}
