import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;

/**
 * Benchmark driver for cube555 (5x5x5 five-phase reduction, with min2phase
 * from the peer's lib/twophase.jar for the 3x3x3 finish).
 *
 * Reads 150-letter URFDLB facelet strings from standard input, one per line
 * (cube555 reads the same layout: CubieCube.fromFacelet, faces U R F D L B,
 * each row by row on the kociemba net, colours taken from the centres). Prints
 * "# init-ms T" once the solver is initialised, then per state one line
 * "SOLUTION<TAB>MS": the reduction followed by the 3x3x3 finish, in cube555's
 * notation (lower-case letters are its two-layer wide turns), and the
 * milliseconds of that solve. A state the solver rejects gives "ERROR ...".
 *
 * Settings are those of the peer's own example/MainProgram.java:
 * solveReduction(facelet, 0), then min2phase solution(f333, 21,
 * Integer.MAX_VALUE, 500, 0). The peer prints its progress on System.out;
 * that goes to standard error here.
 *
 * Run it in the directory that holds (or is to hold) the peer's pruning
 * tables: cube555 loads them from, or builds and saves them to, the working
 * directory.
 */
public class Drive555 {
    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true);
        System.setOut(System.err);

        long start = System.nanoTime();
        cs.cube555.Search.init();
        cs.min2phase.Search.init();
        cs.cube555.Search search = new cs.cube555.Search();
        cs.min2phase.Search search333 = new cs.min2phase.Search();
        out.printf("# init-ms %.1f%n", (System.nanoTime() - start) / 1e6);

        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        String line;
        while ((line = in.readLine()) != null) {
            line = line.trim();
            if (line.isEmpty()) {
                continue;
            }
            long t = System.nanoTime();
            String solution;
            try {
                String[] reduced = search.solveReduction(line, 0);
                if (reduced[0].startsWith("Error")) {
                    solution = "ERROR reduction: " + reduced[0];
                } else {
                    String finish = search333.solution(reduced[1], 21, Integer.MAX_VALUE, 500, 0);
                    solution = finish.startsWith("Error")
                        ? "ERROR 3x3x3 finish: " + finish
                        : (reduced[0] + " " + finish).trim().replaceAll("\\s+", " ");
                }
            } catch (RuntimeException e) {
                solution = "ERROR " + e;
            }
            out.printf("%s\t%.3f%n", solution, (System.nanoTime() - t) / 1e6);
        }
    }
}
