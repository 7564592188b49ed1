import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.File;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;

/**
 * Benchmark driver for TPR-4x4x4-Solver (4x4x4 three-phase reduction, with
 * min2phase from the peer's twophase.jar for the 3x3x3 finish).
 *
 * Reads 96-letter URFDLB facelet strings from standard input, one per line
 * (TPR reads the same layout: FullCube(byte[]), faces U R F D L B, each row
 * by row on the kociemba net, a letter naming the face whose colour it is).
 * Prints "# init-ms T" once the solver is initialised, then per state one
 * line "SOLUTION<TAB>MS": TPR's solution string (Uw2, Rw' ..., ending with
 * the whole-cube rotation it appends) and the milliseconds of that solve. A
 * failed solve gives "ERROR ...".
 *
 * Settings: the peer's defaults, new Search().solution(facelet). Tables as
 * the peer's own solver and test programs keep them: twophase.data and
 * threephase.data in the working directory, loaded if present, else built
 * and saved (here through a temporary file, renamed when complete). The peer
 * prints its progress on System.out; that goes to standard error here.
 */
public class DriveTPR {
    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true);
        System.setOut(System.err);

        long start = System.nanoTime();
        File twophase = new File("twophase.data");
        if (twophase.exists()) {
            try (DataInputStream in = open(twophase)) {
                cs.min2phase.Tools.initFrom(in);
            }
        } else {
            cs.min2phase.Search.init();
            File tmp = new File("twophase.data.tmp");
            try (DataOutputStream o = create(tmp)) {
                cs.min2phase.Tools.saveTo(o);
            }
            rename(tmp, twophase);
        }
        File threephase = new File("threephase.data");
        if (threephase.exists()) {
            try (DataInputStream in = open(threephase)) {
                cs.threephase.Tools.initFrom(in);
            }
        } else {
            File tmp = new File("threephase.data.tmp");
            try (DataOutputStream o = create(tmp)) {
                cs.threephase.Tools.saveTo(o);
            }
            rename(tmp, threephase);
        }
        cs.threephase.Search search = new cs.threephase.Search();
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
                solution = search.solution(line).trim().replaceAll("\\s+", " ");
            } catch (RuntimeException e) {
                solution = "ERROR " + e;
            }
            out.printf("%s\t%.3f%n", solution, (System.nanoTime() - t) / 1e6);
        }
    }

    static DataInputStream open(File f) throws IOException {
        return new DataInputStream(new BufferedInputStream(new FileInputStream(f)));
    }

    static DataOutputStream create(File f) throws IOException {
        return new DataOutputStream(new BufferedOutputStream(new FileOutputStream(f)));
    }

    static void rename(File from, File to) throws IOException {
        if (!from.renameTo(to)) {
            throw new IOException("cannot rename " + from + " to " + to);
        }
    }
}
