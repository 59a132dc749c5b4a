# bash completion for sdtrace(1)                                    -*- shell-script -*-
# SPDX-License-Identifier: MIT
#
# Installed as ${datadir}/bash-completion/completions/sdtrace (loaded on demand by the
# bash-completion package), or sourced by hand: `. completion/sdtrace.bash`. It needs nothing
# from bash-completion.
#
# Completes commands, subcommands, options, option values, and the event names of -e from
# the cache: `sdtrace list PATTERN` goes through the cache's event index (no rescan of binaries
# that did not change); the typed prefix narrows the pattern, so only binaries with a matching
# provider are read. --cache-dir and -x on the line are honoured.
#
# The options of each command: the lines to edit when an option is added. They must equal the
# options of `sdtrace CMD --help` and of man/sdtrace-CMD.1.scd (tests/e2e/t1100-options-agree.sh
# compares the three). An option that takes a value ends with '=' when written --opt=VALUE;
# what its value is completed with is in _sdtrace_value() below.

_sdtrace_commands='list record trace stat top report cache probe help'
_sdtrace_opts_global='--cache-dir -v --verbose --version -h --help'
_sdtrace_opts_list='-x --exec --build-id -p --pid -v --verbose --types --json -h --help'
_sdtrace_opts_record='-g --call-graph -o --output -e --event --types -x --exec -p --pid -a --all-cpus
	--duration --semaphore= --engine= -m --mmap-pages --filter --no-follow --owner -h --help'
_sdtrace_opts_trace='--json --interval --latency --min --flow --pair-by= -e --event --types -x --exec -p --pid -a --all-cpus
	--duration --semaphore= --engine= -m --mmap-pages --filter --no-follow --owner -h --help'
_sdtrace_opts_stat='--json -o --output -I --interval --serve -e --event --types -x --exec -p --pid -a --all-cpus --duration
	--semaphore= --engine= -m --mmap-pages --filter --by --latency --key --pair --pair-by= --top --max-keys --no-follow --owner -h --help'
_sdtrace_opts_top='-I --interval -n --top --by --per-process --json -e --event --types -x --exec
	-p --pid -a --all-cpus --duration --semaphore= --engine= -m --mmap-pages --filter --no-follow
	--owner -h --help'
_sdtrace_opts_report='-i --input -o --output --json --stats --header --latency --pair --pair-by=
	--format= --filter --key --by --top --count --sum --slice-name -g --title -h --help'
_sdtrace_opts_cache='-h --help'
_sdtrace_subcommands_cache='add remove list purge update check'
_sdtrace_opts_cache_add='-r --recursive -j --jobs --no-copy --cross-mounts --build-id -h --help'
_sdtrace_opts_cache_remove='-h --help'
_sdtrace_opts_cache_list='--json -h --help'
_sdtrace_opts_cache_purge='-h --help'
_sdtrace_opts_cache_update='-h --help'
_sdtrace_opts_cache_check='--repair -h --help'
_sdtrace_opts_probe='-h --help'
_sdtrace_subcommands_probe='add list remove'
_sdtrace_opts_probe_add='-x --exec --json -h --help'
_sdtrace_opts_probe_list='--json -v --verbose -h --help'
_sdtrace_opts_probe_remove='-x --exec -h --help'

# Does command $1 have subcommands (cache add, probe list)?
_sdtrace_has_subcommands()
{
	local v=_sdtrace_subcommands_$1
	[[ ${!v+set} ]]
}

# Does option $1 take a value (as the next word)?
_sdtrace_takes_value()
{
	case $1 in
	--cache-dir | -x | --exec | -p | --pid | --types | -e | --event | -o | --output | \
		--duration | --semaphore | --engine | --pair-by | --min | -m | --mmap-pages | -I | --interval | --serve | -i | --input | -j | --jobs | \
		--pair | --format | --build-id | --filter | --key | --by | --top | --sum | -n | --slice-name | --max-keys | --title | --owner)
		return 0 ;;
	esac
	return 1
}

# Complete the value $2 of option $1 into COMPREPLY (full words, before the ':' '=' trim).
_sdtrace_value()
{
	local opt=$1 cur=$2 i
	case $opt in
	--cache-dir)
		_sdtrace_files -d "$cur" ;;
	-x | --exec | --types | -o | --output | -i | --input)
		_sdtrace_files -f "$cur" ;;
	-p | --pid)
		# a comma-separated list: complete its last element
		local head= pids
		[[ $cur == *,* ]] && head=${cur%,*},
		pids=$(cd /proc 2>/dev/null && printf '%s\n' [0-9]*)
		COMPREPLY=($(compgen -P "$head" -W "$pids" -- "${cur##*,}")) ;;
	-e | --event)
		_sdtrace_events "$cur" ;;
	--semaphore)
		COMPREPLY=($(compgen -W 'auto refctr poke' -- "$cur")) ;;
	--engine)
		COMPREPLY=($(compgen -W 'auto tracefs bpf' -- "$cur")) ;;
	--pair-by)
		COMPREPLY=($(compgen -W 'thread key' -- "$cur")) ;;
	--format)
		COMPREPLY=($(compgen -W 'text json chrome perfetto csv folded flamegraph' -- "$cur")) ;;
	--build-id)
		# the build-ids of the cache (list --build-id reads the cache first)
		local ids dir=${_sdtrace_cache_dir:-${SDTRACE_CACHE_DIR:-$HOME/.debug}}
		[[ -d $dir ]] && ids=$("$_sdtrace_bin" \
			${_sdtrace_cache_dir:+--cache-dir "$_sdtrace_cache_dir"} cache list 2>/dev/null |
			awk '{ print $1 }')
		COMPREPLY=($(compgen -W "$ids" -- "$cur")) ;;
	--pair)
		# START,END: two event specs
		if [[ $cur == *,* ]]; then
			_sdtrace_events "${cur#*,}"
			for i in "${!COMPREPLY[@]}"; do
				COMPREPLY[i]=${cur%%,*},${COMPREPLY[i]}
			done
		else
			_sdtrace_events "$cur"
		fi ;;
	-m | --mmap-pages)
		COMPREPLY=($(compgen -W '1 4 16 64 256 1024 4096 16384' -- "$cur")) ;;
	*)
		COMPREPLY=() ;; # a number or free text: nothing to offer
	esac
}

# Files (-f) or directories (-d) starting with $2, marked as file names for bash.
_sdtrace_files()
{
	local IFS=$'\n'
	COMPREPLY=($(compgen "$1" -- "$2"))
	compopt -o filenames 2>/dev/null
}

# The events of the cache (or of the -x binaries on the line) starting with $1, as
# %provider:event (provider:event and the names of user probes when $1 is typed without the '%').
_sdtrace_events()
{
	local cur=$1 pct=% pat names i
	local -a args=()
	# never create a cache by pressing TAB: ask only an existing one (or the -x binaries)
	local dir=${_sdtrace_cache_dir:-${SDTRACE_CACHE_DIR:-$HOME/.debug}}
	[[ -d $dir || ${#_sdtrace_execs[@]} -gt 0 ]] || return 0
	[[ $_sdtrace_cache_dir ]] && args+=(--cache-dir "$_sdtrace_cache_dir")
	args+=(list)
	for i in "${_sdtrace_execs[@]}"; do
		args+=(-x "$i")
	done
	[[ $cur && $cur != %* ]] && pct=
	pat=${cur#%}
	# the typed prefix as a pattern: 'py' -> provider py*; 'python:gc' -> python:gc*
	if [[ $pat == *:* ]]; then
		pat="%$pat*"
	else
		pat="%$pat*:*"
	fi
	# PATH:%provider:event lines -> [%]provider:event (sed: a read loop in bash is 10x slower)
	names=$("${_sdtrace_bin:-sdtrace}" "${args[@]}" "$pat" 2>/dev/null |
		sed -n "s/.*:%/$pct/p" | sort -u)
	# typed without the '%': user probes too (sdtrace-probe(1)), which -e takes by name
	if [[ $cur != %* && ${#_sdtrace_execs[@]} -eq 0 ]]; then
		names+=$'\n'$("${_sdtrace_bin:-sdtrace}" "${args[@]:0:${#args[@]}-1}" probe list \
			2>/dev/null | awk '{ print $1 }')
	fi
	local IFS=$'\n'
	COMPREPLY=($(compgen -W "$names" -- "$cur"))
}

_sdtrace()
{
	local line=${COMP_LINE:0:COMP_POINT} cur prev cmd= sub= i w optvar
	local -a words
	local _sdtrace_cache_dir= _sdtrace_bin=${COMP_WORDS[0]}
	local -a _sdtrace_execs=()
	COMPREPLY=()

	# Our own words, split at blanks only: COMP_WORDS splits at ':' and '=' too, which would
	# cut %provider:event and --opt=value apart.
	read -ra words <<<"$line"
	[[ $line == *[[:space:]] || ${#words[@]} -eq 0 ]] && words+=('')
	cur=${words[${#words[@]} - 1]}
	prev=
	((${#words[@]} > 1)) && prev=${words[${#words[@]} - 2]}
	# the sdtrace being typed (./build/sdtrace), with a leading ~/ expanded as the shell will
	[[ $_sdtrace_bin == \~/* ]] && _sdtrace_bin=$HOME/${_sdtrace_bin#\~/}

	# Find the command (and the cache subcommand), the --cache-dir and -x values before cur.
	for ((i = 1; i < ${#words[@]} - 1; i++)); do
		w=${words[i]}
		if [[ $w == -- && $cmd ]]; then
			# the traced command: its name, then its arguments (files)
			if ((i == ${#words[@]} - 2)); then
				COMPREPLY=($(compgen -c -- "$cur" | sort -u))
			else
				_sdtrace_files -f "$cur"
			fi
			return 0
		fi
		case $w in
		--cache-dir=*) _sdtrace_cache_dir=${w#*=} ;;
		--exec=*) _sdtrace_execs+=("${w#*=}") ;;
		-*)
			if _sdtrace_takes_value "$w" && ((i + 1 < ${#words[@]} - 1)); then
				((i++))
				[[ $w == --cache-dir ]] && _sdtrace_cache_dir=${words[i]}
				[[ $w == -x || $w == --exec ]] && _sdtrace_execs+=("${words[i]}")
			fi ;;
		*)
			if [[ ! $cmd ]]; then
				cmd=$w
			elif [[ ! $sub ]] && _sdtrace_has_subcommands "$cmd"; then
				sub=$w
			fi ;;
		esac
	done
	# a leading ~/ as the shell will expand it (never eval what is on the line)
	[[ $_sdtrace_cache_dir == \~/* ]] && _sdtrace_cache_dir=$HOME/${_sdtrace_cache_dir#\~/}
	for i in "${!_sdtrace_execs[@]}"; do
		w=${_sdtrace_execs[i]}
		[[ $w == \~/* ]] && _sdtrace_execs[i]=$HOME/${w#\~/}
	done

	if [[ $prev == -* ]] && _sdtrace_takes_value "$prev"; then
		_sdtrace_value "$prev" "$cur"
	elif [[ $cur == --*=* ]]; then
		_sdtrace_value "${cur%%=*}" "${cur#*=}"
		for i in "${!COMPREPLY[@]}"; do
			COMPREPLY[i]=${cur%%=*}=${COMPREPLY[i]}
		done
	elif [[ ! $cmd ]]; then
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "$_sdtrace_opts_global" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$_sdtrace_commands" -- "$cur"))
		fi
	elif [[ $cmd == help ]]; then
		[[ $prev == help ]] &&
			COMPREPLY=($(compgen -W "${_sdtrace_commands% help}" -- "$cur"))
	elif [[ ! $sub ]] && _sdtrace_has_subcommands "$cmd"; then
		optvar=_sdtrace_opts_$cmd
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "${!optvar}" -- "$cur"))
		else
			optvar=_sdtrace_subcommands_$cmd
			COMPREPLY=($(compgen -W "${!optvar}" -- "$cur"))
		fi
	else
		optvar=_sdtrace_opts_$cmd${sub:+_$sub}
		if [[ $cur == -* ]]; then
			[[ ${!optvar+set} ]] && COMPREPLY=($(compgen -W "${!optvar}" -- "$cur"))
		elif [[ $cmd == list && ! $sub ]]; then
			# a pattern: the events of the -x binaries, or of the cache
			_sdtrace_events "$cur"
		elif [[ $cmd == cache && $sub == remove ]]; then
			local paths dir=${_sdtrace_cache_dir:-${SDTRACE_CACHE_DIR:-$HOME/.debug}}
			[[ -d $dir ]] && paths=$("$_sdtrace_bin" ${_sdtrace_cache_dir:+--cache-dir "$_sdtrace_cache_dir"} \
				cache list 2>/dev/null | awk '{ print $NF }' | sort -u)
			local IFS=$'\n'
			COMPREPLY=($(compgen -W "$paths" -- "$cur"))
		elif [[ $cmd == probe && ($sub == remove || $sub == list) ]]; then
			# the names of the user probes of the cache
			local names dir=${_sdtrace_cache_dir:-${SDTRACE_CACHE_DIR:-$HOME/.debug}}
			[[ -d $dir ]] && names=$("$_sdtrace_bin" \
				${_sdtrace_cache_dir:+--cache-dir "$_sdtrace_cache_dir"} probe list \
				2>/dev/null | awk '{ print $1 }' | sort -u)
			COMPREPLY=($(compgen -W "$names" -- "$cur"))
		elif [[ $cmd == cache && $sub == add ]]; then
			_sdtrace_files -f "$cur"
		fi
	fi

	# --opt= completions take their value without a blank after the '='
	if ((${#COMPREPLY[@]} == 1)) && [[ ${COMPREPLY[0]} == *= ]]; then
		compopt -o nospace 2>/dev/null
	fi
	# Readline replaces only the text after the last ':' or '=' (COMP_WORDBREAKS): drop what
	# comes before it from each completion.
	local wb=${COMP_WORDBREAKS-:=} brk=
	[[ $wb == *:* ]] && brk+=:
	[[ $wb == *=* ]] && brk+==
	if [[ $brk && $cur == *[$brk]* ]]; then
		local pre=${cur%"${cur##*[$brk]}"}
		for i in "${!COMPREPLY[@]}"; do
			COMPREPLY[i]=${COMPREPLY[i]#"$pre"}
		done
	fi
	return 0
}
complete -F _sdtrace sdtrace
