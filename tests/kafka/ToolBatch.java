// ToolBatch.java — runs a Kafka tool's main class many times in one JVM, so a test that needs dozens of
// kafka-consumer-groups runs pays for one JVM start instead of one each (~1 s apiece on a loaded machine).
//
//   java -Dlog4j2.configurationFile=CONF -cp CLASSES ToolBatch MAIN_CLASS
//
// Prints "ready" once. Then, per line on standard input (the arguments, separated by U+001F), it calls
// MAIN_CLASS.main(args) with System.out and System.err captured and Kafka's Exit procedure turned into an
// exception (what CommandLineUtils.printUsageAndExit and friends call), and answers
//   result RC OUT_BYTES ERR_BYTES\n<out bytes><err bytes>
// RC is the status the tool asked to exit with (0 when main returned, 1 for an exception that escaped main,
// as the JVM would). The log4j2 configuration must set follow = true on its console appender, so that the
// tool's warnings land in the captured System.err. Ends at end of input.
import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;

public final class ToolBatch {
    // The status of the first Exit of the current run; from then on the run's output is dropped, as the
    // JVM would have ended there (an exit inside the tool's own try/catch must not let it print on).
    private static volatile Integer exited;

    // Captures a run's output until the tool exits.
    static final class Capture extends OutputStream {
        final ByteArrayOutputStream buf = new ByteArrayOutputStream();

        @Override
        public synchronized void write(int b) {
            if (exited == null)
                buf.write(b);
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) {
            if (exited == null)
                buf.write(b, off, len);
        }
    }

    static final class ExitCalled extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final int code;

        ExitCalled(int code) {
            super("exit " + code, null, false, false);
            this.code = code;
        }
    }

    private static ExitCalled exitIn(Throwable t) {
        for (int depth = 0; t != null && depth < 20; t = t.getCause(), depth++)
            if (t instanceof ExitCalled)
                return (ExitCalled) t;
        return null;
    }

    // Kafka's Exit class moved (org.apache.kafka.common.utils.Exit up to 3.9, ...utils.internals.Exit in 4.x):
    // found by reflection, its Procedure implemented by a proxy that throws.
    private static void hookExit() throws Exception {
        Class<?> exit;
        try {
            exit = Class.forName("org.apache.kafka.common.utils.internals.Exit");
        } catch (ClassNotFoundException e) {
            exit = Class.forName("org.apache.kafka.common.utils.Exit");
        }
        Class<?> proc = Class.forName(exit.getName() + "$Procedure");
        Object thrower = Proxy.newProxyInstance(ToolBatch.class.getClassLoader(), new Class<?>[] {proc},
            (self, m, args) -> {
                if (m.getName().equals("execute")) {
                    synchronized (ToolBatch.class) {
                        if (exited == null) {
                            System.out.flush();
                            System.err.flush();
                            exited = (Integer) args[0];
                        }
                    }
                    throw new ExitCalled((Integer) args[0]);
                }
                if (m.getName().equals("toString"))
                    return "ToolBatch exit";
                return m.getName().equals("hashCode") ? (Object) 0 : (Object) (self == args[0]);
            });
        exit.getMethod("setExitProcedure", proc).invoke(null, thrower);
        exit.getMethod("setHaltProcedure", proc).invoke(null, thrower);
    }

    public static void main(String[] a) throws Exception {
        Method main = Class.forName(a[0]).getMethod("main", String[].class);
        OutputStream real = new BufferedOutputStream(new FileOutputStream(FileDescriptor.out));
        PrintStream realOut = System.out, realErr = System.err;
        hookExit();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        real.write("ready\n".getBytes(StandardCharsets.UTF_8));
        real.flush();
        String line;
        while ((line = in.readLine()) != null) {
            String[] args = line.isEmpty() ? new String[0] : line.split("\u001f", -1);
            Capture out = new Capture(), err = new Capture();
            exited = null;
            PrintStream po = new PrintStream(out, true, StandardCharsets.UTF_8);
            PrintStream pe = new PrintStream(err, true, StandardCharsets.UTF_8);
            int rc = 0;
            System.setOut(po);
            System.setErr(pe);
            try {
                main.invoke(null, (Object) args);
            } catch (InvocationTargetException e) {
                if (exited == null && exitIn(e.getCause()) == null) {
                    e.getCause().printStackTrace(pe);
                    rc = 1;
                }
            } finally {
                if (exited != null)
                    rc = exited;
                System.setOut(realOut);
                System.setErr(realErr);
                po.flush();
                pe.flush();
            }
            byte[] ob = out.buf.toByteArray(), eb = err.buf.toByteArray();
            real.write(("result " + rc + " " + ob.length + " " + eb.length + "\n").getBytes(StandardCharsets.UTF_8));
            real.write(ob);
            real.write(eb);
            real.flush();
        }
    }
}
