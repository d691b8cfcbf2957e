-- coro_timer, Haskell (GHC): N threads from forkIO, each threadDelay SLEEP_MS; the last to finish
-- fills one MVar, which main waits on.
-- Build:  ghc -O2 -threaded -rtsopts coro_timer.hs   (run.sh: GHCRTS=-N<T> for T capabilities)
-- Run:    coro_timer N [SLEEP_MS=5000]
-- Prints: scenario=coro_timer runtime=haskell n=N sleep_ms=MS spawn_ms=S ended_at_spawn=E
--         rss_wait_kib=R wall_ms=W completed=C; exits 1 if C != N. S: ms from start until the
--         forkIO loop returned (a forked thread may run at once); E: threads that had already
--         ended by then, read from the counter each one bumps as its last act.
import Control.Concurrent (forkIO, threadDelay)
import Control.Concurrent.MVar (newEmptyMVar, putMVar, takeMVar)
import Control.Exception (IOException, try)
import Control.Monad (forM_, unless, when)
import Data.Char (isDigit)
import Data.IORef (atomicModifyIORef', newIORef, readIORef)
import Data.List (isPrefixOf)
import GHC.Clock (getMonotonicTimeNSec)
import System.Environment (getArgs)
import System.Exit (ExitCode (..), exitWith)
import System.IO (hPutStrLn, readFile', stderr)

main :: IO ()
main = do
  (n, ms) <- args 5000
  completed <- newIORef (0 :: Int)
  done <- newEmptyMVar
  start <- getMonotonicTimeNSec
  forM_ [1 .. n] $ \_ -> forkIO $ do
    threadDelay (ms * 1000)
    c <- atomicModifyIORef' completed (\c -> (c + 1, c + 1))
    when (c == n) (putMVar done ())
  spawned <- getMonotonicTimeNSec
  endedAtSpawn <- readIORef completed
  rssWait <- rssKib -- every thread exists (the last forked may not have begun its wait yet)
  takeMVar done
  end <- getMonotonicTimeNSec
  c <- readIORef completed
  let spawnMs = (spawned - start + 500000) `div` 1000000
      wallMs = (end - start) `div` 1000000
  check (c == n) ("completed " ++ show c ++ " of " ++ show n)
  check (wallMs >= fromIntegral ms) "the run took less than one sleep"
  putStrLn $ "scenario=coro_timer runtime=haskell n=" ++ show n ++ " sleep_ms=" ++ show ms ++ " spawn_ms=" ++ show spawnMs
    ++ " ended_at_spawn=" ++ show endedAtSpawn ++ " rss_wait_kib=" ++ rssWait ++ " wall_ms=" ++ show wallMs
    ++ " completed=" ++ show c

-- N (>= 1) and SLEEP_MS from the command line, digits only; anything else is a usage error, exit 2.
args :: Int -> IO (Int, Int)
args defaultMs = do
  a <- getArgs
  let number s = if not (null s) && all isDigit s && length s < 10 then Just (read s) else Nothing
  case mapM number a of
    Just [n] | n >= 1 -> return (n, defaultMs)
    Just [n, ms] | n >= 1 -> return (n, ms)
    _ -> do
      hPutStrLn stderr ("usage: coro_timer N [SLEEP_MS=" ++ show defaultMs ++ "]  (N >= 1)")
      exitWith (ExitFailure 2)

-- The resident set in KiB, for rss_wait_kib=: VmRSS from /proc/self/status (Linux), else "-".
rssKib :: IO String
rssKib = do
  -- readFile' reads it now: a lazy readFile would read it only when the line is printed, at the end.
  status <- try (readFile' "/proc/self/status") :: IO (Either IOException String)
  let vmRss = [w | Right s <- [status], l <- lines s, "VmRSS:" `isPrefixOf` l, w <- take 1 (drop 1 (words l))]
  return (if null vmRss then "-" else head vmRss)

check :: Bool -> String -> IO ()
check ok what = unless ok $ do
  hPutStrLn stderr ("coro_timer: check failed: " ++ what)
  exitWith (ExitFailure 1)
