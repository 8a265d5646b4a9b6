// RefConsumer.java — the Java client (kafka-clients) as a reference group member for the tests.
//
//   java -cp CLASSES RefConsumer BOOTSTRAP GROUP PROTOCOL TOPIC[,TOPIC...] [key=value ...]
//
// PROTOCOL is "classic" or "consumer" (KIP-848). Extra key=value pairs are consumer properties, except
// three of the test's own: lagtop.commit=false (never commit), lagtop.poll-sleep-ms=MS (sleep after each
// poll: a slow consumer), lagtop.pause-after=N (pause every partition once N records were consumed, and
// go on polling, so the group keeps the member and its position stands still).
// It subscribes, polls, and commits synchronously after each poll that returned records. On stdout,
// one line per event, for the test to wait on:
//   assigned TOPIC:P,...   after every assignment change (once the group has given it partitions)
//   committed N            after each synchronous commit, N = records consumed so far
//   consumed N             instead, with lagtop.commit=false
//   paused TOPIC:P=POS,... when it paused, with its position on each assigned partition
// It stops and leaves the group (close) when its standard input reaches end of file or reads "quit";
// a test that ends kills it anyway.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Properties;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

public final class RefConsumer {
    public static void main(String[] args) throws Exception {
        if (args.length < 4) {
            System.err.println("usage: RefConsumer BOOTSTRAP GROUP classic|consumer TOPIC[,TOPIC...] [key=value ...]");
            System.exit(2);
        }
        Properties p = new Properties();
        p.put("bootstrap.servers", args[0]);
        p.put("group.id", args[1]);
        p.put("group.protocol", args[2]);
        p.put("enable.auto.commit", "false");
        p.put("auto.offset.reset", "earliest");
        p.put("key.deserializer", ByteArrayDeserializer.class.getName());
        p.put("value.deserializer", ByteArrayDeserializer.class.getName());
        for (int i = 4; i < args.length; i++) {
            int eq = args[i].indexOf('=');
            if (eq <= 0) {
                System.err.println("RefConsumer: not key=value: " + args[i]);
                System.exit(2);
            }
            p.put(args[i].substring(0, eq), args[i].substring(eq + 1));
        }
        List<String> topics = Arrays.asList(args[3].split(","));
        boolean commit = !"false".equals(p.remove("lagtop.commit"));
        Object sleepArg = p.remove("lagtop.poll-sleep-ms"), pauseArg = p.remove("lagtop.pause-after");
        long sleepMs = sleepArg == null ? 0 : Long.parseLong(sleepArg.toString());
        long pauseAfter = pauseArg == null ? 0 : Long.parseLong(pauseArg.toString());
        boolean paused = false;

        AtomicBoolean stop = new AtomicBoolean(false);
        Thread stdin = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(System.in))) {
                String line;
                while ((line = r.readLine()) != null && !line.trim().equals("quit")) {
                }
            } catch (Exception e) {
                // end of input either way
            }
            stop.set(true);
        });
        stdin.setDaemon(true);
        stdin.start();

        long consumed = 0;
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p)) {
            c.subscribe(topics, new ConsumerRebalanceListener() {
                @Override
                public void onPartitionsRevoked(Collection<TopicPartition> parts) {
                }

                @Override
                public void onPartitionsAssigned(Collection<TopicPartition> parts) {
                    TreeSet<String> all = new TreeSet<>();
                    for (TopicPartition tp : c.assignment())
                        all.add(tp.topic() + ":" + tp.partition());
                    System.out.println("assigned " + String.join(",", new ArrayList<>(all)));
                    System.out.flush();
                }
            });
            while (!stop.get()) {
                ConsumerRecords<byte[], byte[]> recs = c.poll(Duration.ofMillis(200));
                if (!recs.isEmpty()) {
                    consumed += recs.count();
                    if (commit) {
                        c.commitSync();
                        System.out.println("committed " + consumed);
                    } else {
                        System.out.println("consumed " + consumed);
                    }
                    System.out.flush();
                }
                if (pauseAfter > 0 && !paused && consumed >= pauseAfter) {
                    c.pause(c.assignment());
                    paused = true;
                    TreeSet<String> pos = new TreeSet<>();
                    for (TopicPartition tp : c.assignment())
                        pos.add(tp.topic() + ":" + tp.partition() + "=" + c.position(tp));
                    System.out.println("paused " + String.join(",", new ArrayList<>(pos)));
                    System.out.flush();
                }
                if (sleepMs > 0)
                    Thread.sleep(sleepMs);
            }
        }
        System.out.println("closed");
        System.out.flush();
    }
}
